// A shipper of one node (in the daemon's primary, cluster mode only): copies the committed entries
// of one kind from the local JSONL store (the spool) to PostgreSQL in batches, each batch with the
// node's cursor for that kind in the same transaction: WAF events as rows (ship-batch.ts), access
// entries as rollup deltas (ship-access-batch.ts). It ships as soon as it is woken and on a timer
// besides; while PostgreSQL cannot be reached it backs off and the spool grows, and once it
// answers again the backlog goes out in batches. After any failure it re-reads its cursor from
// PostgreSQL: a commit whose answer was lost is then not shipped twice, and the rows of one that
// did not land are shipped again.
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { Backoff } from '../backoff.js';
import { isUnreachable } from '../unreachable.js';
import { readShipCursor, registerNode, type ShipKind } from './node-identity.js';
import type { SpoolReader } from './spool-reader.js';
import { visibleFromMs } from './week-partitions.js';

/**
 * Puts one batch (local id order) into PostgreSQL with the cursor `through`, in one transaction.
 * Entries before `visibleFrom` are past retention: stepped over, not inserted. Returns the rows
 * or entries stored.
 */
export type ShipFunction<T> = (pool: Pool, nodeId: number, entries: readonly T[], through: number, visibleFrom: number) => Promise<number>;

export interface ShipperOptions<T extends { id: number }> {
  kind: ShipKind;
  /** What the logs call the entries: "WAF events", "access entries". */
  label: string;
  pool: Pool;
  reader: SpoolReader<T>;
  ship: ShipFunction<T>;
  nodeKey: string;
  /** Creates the tables once per process (shared with the readers). */
  ready: () => Promise<void>;
  logger: Logger;
  retentionDays: number;
  clock?: () => number;
  batchSize?: number;
  /** Looks at the spool this often even when nobody wakes it. */
  pollMs?: number;
}

export type ShipperHealth = 'starting' | 'shipping' | 'unreachable' | 'failing';

interface Waiter {
  id: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class EventShipper<T extends { id: number }> {
  readonly #o: Required<Omit<ShipperOptions<T>, 'clock'>> & { clock: () => number };
  readonly #backoff = new Backoff(500, 2_000); // recovery within 5 s of the database coming back (acceptance 7)
  #health: ShipperHealth = 'starting';
  #nodeId: number | null = null;
  #synced = false;
  #closed = false;
  #wake: (() => void) | null = null;
  #woken = false;
  #waiters: Waiter[] = [];
  #loop: Promise<void> | null = null;
  #shipped = 0;
  #healthSince = Date.now();
  #caughtUp = false;

  constructor(options: ShipperOptions<T>) {
    // Each default by itself: a key present but undefined (a caller passing its own optional
    // through) must not wipe one out (it did: a 1 ms poll).
    this.#o = { ...options, batchSize: options.batchSize ?? 1_000, pollMs: options.pollMs ?? 1_000, clock: options.clock ?? Date.now };
  }

  get health(): ShipperHealth {
    return this.#health;
  }

  /** When the health last changed (epoch ms). */
  get healthSince(): number {
    return this.#healthSince;
  }

  /** The last look at the spool found nothing after the cursor (and nothing failed since). */
  get caughtUp(): boolean {
    return this.#caughtUp;
  }

  /** Local id through which every entry of this kind of this node is in PostgreSQL, as far as this process knows. */
  get cursor(): number {
    return this.#o.reader.cursor;
  }

  /** Entries stored by this process so far. */
  get shipped(): number {
    return this.#shipped;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Something was appended: ship now rather than at the next poll. */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /**
   * Resolves once local id `id` is in PostgreSQL; rejects when a ship attempt fails meanwhile
   * (the caller answers 503: the event stays in the spool and ships later).
   */
  whenShipped(id: number): Promise<void> {
    if (this.#synced && this.cursor >= id) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ id, resolve, reject });
      this.wake();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wake?.();
    await this.#loop;
    this.#rejectWaiters(new Error('the event shipper stopped'));
  }

  async #run(): Promise<void> {
    while (!this.#closed) {
      try {
        await this.#sync();
        const batch = await this.#o.reader.next(this.#o.batchSize);
        this.#caughtUp = batch === null;
        if (batch === null) {
          this.#settleWaiters();
          await this.#sleep(this.#o.pollMs);
          continue;
        }
        if (batch.entries.length > 0) {
          const visibleFrom = visibleFromMs(this.#o.clock(), this.#o.retentionDays);
          this.#shipped += await this.#o.ship(this.#o.pool, this.#nodeId!, batch.entries, batch.through, visibleFrom);
        }
        this.#o.reader.advance(batch);
        this.#settleWaiters();
        this.#backoff.reset();
      } catch (error) {
        await this.#failed(error);
      }
    }
  }

  /** After a start or a failure: the tables, this node's number and its cursor, from PostgreSQL. */
  async #sync(): Promise<void> {
    if (this.#synced) return;
    await this.#o.ready();
    this.#nodeId ??= await registerNode(this.#o.pool, this.#o.nodeKey);
    const cursor = await readShipCursor(this.#o.pool, this.#nodeId, this.#o.kind);
    this.#o.reader.reset(cursor);
    this.#synced = true;
    if (this.#health !== 'shipping') this.#o.logger.info({ node_id: this.#nodeId, cursor }, `event shipper: shipping ${this.#o.label} to PostgreSQL`);
    this.#setHealth('shipping');
  }

  async #failed(error: unknown): Promise<void> {
    this.#synced = false;
    const unreachable = isUnreachable(error);
    const health: ShipperHealth = unreachable ? 'unreachable' : 'failing';
    // Said once per outage; a failure that is not an outage is a bug and said each time.
    if (!unreachable) this.#o.logger.error({ err: error }, `event shipper: a batch of ${this.#o.label} failed; retrying`);
    else if (this.#health !== 'unreachable') this.#o.logger.warn({ err: error }, `event shipper: PostgreSQL unreachable, ${this.#o.label} wait in the local spool`);
    this.#setHealth(health);
    this.#caughtUp = false;
    this.#rejectWaiters(error instanceof Error ? error : new Error(String(error)));
    // Not cut short by wake(): every ingestion request would otherwise knock at once.
    await this.#sleep(this.#backoff.next(), false);
  }

  #setHealth(health: ShipperHealth): void {
    if (health === this.#health) return;
    this.#health = health;
    this.#healthSince = Date.now();
  }

  #settleWaiters(): void {
    const cursor = this.cursor;
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const w of waiting) {
      if (w.id <= cursor) w.resolve();
      else this.#waiters.push(w);
    }
  }

  #rejectWaiters(error: Error): void {
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const w of waiting) w.reject(error);
  }

  #sleep(ms: number, wakeable = true): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#woken && wakeable) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.#wake = null;
        if (wakeable) self.#woken = false;
        resolve();
      }
      this.#wake = wakeable ? done : () => { if (self.#closed) done(); };
    });
  }
}
