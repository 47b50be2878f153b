// The bans of a cluster node: the records in PostgreSQL (`wafctl_bans`, shared by every node),
// a copy of the live and recent ones in memory (what the edge checks, so a request never waits on
// a database), kept current three ways:
//   - every write sends `pg_notify('wafctl_bans', id)` in its transaction; each node LISTENs and
//     reads the rows named (a burst of notifications is one read);
//   - with --cluster-redis, the writer also publishes the whole ban on Redis (ban-fanout.ts), which
//     reaches the other nodes without a read;
//   - every 30 s, and after every (re)connect of the listener, a full read replaces the copy (what
//     a lost notification missed), and the live bans are written back to Redis (a restarted Redis
//     gets its keys again).
// PostgreSQL down: the copy stays (the edge keeps enforcing it; expiry is checked per request);
// a node that starts then takes Redis's keys if it has them; new bans and lifts fail (manual ones
// answer 503 store_unavailable; an automatic one is logged and not set).
import pg from 'pg';
import type { Logger } from 'pino';
import { WafctlError } from '../../../shared/errors.js';
import type { Ban } from '../../../shared/schemas/bans.js';
import { isActive, isKept, ENDED_BANS_KEPT_MS, type BanStore } from '../../bans/ban-store.js';
import { ADVISORY_LOCKS } from '../advisory-locks.js';
import { checkout } from '../events/checkout.js';
import { PgListener } from '../pg-listener.js';
import { describePostgres } from '../postgres-target.js';
import { isUnreachable } from '../unreachable.js';
import { BanFanout } from './ban-fanout.js';

const CHANNEL = 'wafctl_bans';
const RECONCILE_MS = 30_000;
const SUBSCRIBE_WAIT_MS = 3_000;

const TABLE = `
CREATE TABLE IF NOT EXISTS wafctl_bans (
  id uuid PRIMARY KEY,
  site_id bigint NOT NULL,
  ip text NOT NULL,
  reason text NOT NULL,
  source text NOT NULL,
  node text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS wafctl_bans_ended ON wafctl_bans ((coalesce(revoked_at, expires_at)));
CREATE INDEX IF NOT EXISTS wafctl_bans_site_ip ON wafctl_bans (site_id, ip) WHERE revoked_at IS NULL;
`;

const COLUMNS = `id::text AS id, site_id, ip, reason, source, node, created_at, expires_at, revoked_at`;

interface BanRow {
  id: string;
  site_id: string;
  ip: string;
  reason: string;
  source: string;
  node: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const banOf = (r: BanRow): Ban => ({
  id: r.id, site_id: Number(r.site_id), ip: r.ip, reason: r.reason, source: r.source === 'auto' ? 'auto' : 'manual', node: r.node,
  created_at: r.created_at.toISOString(), expires_at: r.expires_at.toISOString(), revoked_at: r.revoked_at?.toISOString() ?? null,
});

export interface PgBanStoreOptions {
  url: string;
  /** --cluster-redis, or null. */
  redis: string | null;
  logger: Logger;
  clock?: () => number;
  reconcileMs?: number;
}

export async function openPgBanStore(o: PgBanStoreOptions): Promise<PgBanStore> {
  const store = new PgBanStore(o);
  await store.start();
  return store;
}

export class PgBanStore implements BanStore {
  readonly #o: PgBanStoreOptions;
  readonly #clock: () => number;
  readonly #pool: pg.Pool;
  readonly #bans = new Map<string, Ban>();
  #sorted: Ban[] | null = null;
  readonly #listeners = new Set<() => void>();
  #listener: PgListener | null = null;
  #fanout: BanFanout | null = null;
  #reconcileTimer: NodeJS.Timeout | null = null;
  #schema: Promise<void> | null = null;
  /** Per ban, when this copy last took it (a sequence): a reconcile drops only what it had seen. */
  readonly #touched = new Map<string, number>();
  #seq = 0;
  /** Ids notified and not read yet: one read for a burst. */
  #notified = new Set<string>();
  #reading: Promise<void> | null = null;
  #unreachableSaid = false;

  constructor(o: PgBanStoreOptions) {
    this.#o = o;
    this.#clock = o.clock ?? Date.now;
    this.#pool = new pg.Pool({ connectionString: o.url, application_name: `wafctl bans ${process.pid}`, max: 2, connectionTimeoutMillis: 5_000, query_timeout: 10_000, idleTimeoutMillis: 30_000, keepAlive: true });
    this.#pool.on('error', (error) => o.logger.warn({ err: error, postgres: describePostgres(o.url) }, 'bans: an idle PostgreSQL connection failed'));
  }

  /** The first read (PostgreSQL, else Redis's keys), then the listener, Redis and the timer. */
  async start(): Promise<void> {
    if (this.#o.redis !== null) {
      this.#fanout = new BanFanout({
        url: this.#o.redis,
        onBan: (ban) => this.#upsert([ban]),
        onFirstReady: () => { void this.#reseed(); },
        onReconnect: () => { void this.reconcile(); },
        logger: this.#o.logger,
      });
      // Subscribed before the node serves: a ban published in between would wait for the reconcile.
      // Bounded: a Redis that does not answer must not hold the start.
      await Promise.race([this.#fanout.subscribed, new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref())]);
    }
    if (!(await this.reconcile()) && this.#fanout) {
      try {
        this.#upsert(await this.#fanout.read());
      } catch (error) {
        this.#o.logger.warn({ err: error }, 'bans: neither PostgreSQL nor Redis could be read; starting with no bans');
      }
    }
    this.#listener = new PgListener({
      url: this.#o.url, channel: CHANNEL, applicationName: `wafctl bans listener ${process.pid}`, logger: this.#o.logger,
      onNotify: (id) => this.#readNotified(id),
      connected: () => { void this.reconcile(); },
    });
    this.#reconcileTimer = setInterval(() => void this.reconcile(), this.#o.reconcileMs ?? RECONCILE_MS);
    this.#reconcileTimer.unref();
  }

  /** Whether the LISTEN connection is up (its every connect reads PostgreSQL again). */
  get listening(): boolean {
    return this.#listener?.listening ?? false;
  }

  all(): readonly Ban[] {
    this.#sorted ??= [...this.#bans.values()].sort((a, b) => a.created_at.localeCompare(b.created_at));
    return this.#sorted;
  }

  async add(ban: Ban): Promise<void> {
    await this.#write(async (client) => {
      await client.query(
        `INSERT INTO wafctl_bans (id, site_id, ip, reason, source, node, created_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [ban.id, ban.site_id, ban.ip, ban.reason, ban.source, ban.node, ban.created_at, ban.expires_at, ban.revoked_at],
      );
      await client.query('SELECT pg_notify($1, $2)', [CHANNEL, ban.id]);
    });
    this.#upsert([ban]);
    await this.#publish([ban]);
  }

  async revoke(siteId: number, ip: string, at: string): Promise<Ban[]> {
    let revoked: Ban[] = [];
    await this.#write(async (client) => {
      const { rows } = await client.query<BanRow>(
        `UPDATE wafctl_bans SET revoked_at = $3 WHERE site_id = $1 AND ip = $2 AND revoked_at IS NULL AND expires_at > $3 RETURNING ${COLUMNS}`,
        [siteId, ip, at],
      );
      revoked = rows.map(banOf);
      for (const b of revoked) await client.query('SELECT pg_notify($1, $2)', [CHANNEL, b.id]);
    });
    this.#upsert(revoked);
    await this.#publish(revoked);
    return revoked;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Replaces the copy with PostgreSQL's records; false when PostgreSQL could not be read. */
  async reconcile(): Promise<boolean> {
    try {
      await this.#ready();
      // A ban this copy takes while the read is on its way (a NOTIFY, a Redis message, this node's
      // own add) may be newer than the read's snapshot: only what was here before it is dropped.
      const before = this.#seq;
      const since = new Date(this.#clock() - ENDED_BANS_KEPT_MS).toISOString();
      const { rows } = await this.#pool.query<BanRow>(`SELECT ${COLUMNS} FROM wafctl_bans WHERE coalesce(revoked_at, expires_at) > $1`, [since]);
      const fresh = rows.map(banOf);
      const ids = new Set(fresh.map((b) => b.id));
      let removed = false;
      for (const id of [...this.#bans.keys()]) {
        if (ids.has(id) || (this.#touched.get(id) ?? 0) > before) continue;
        this.#bans.delete(id);
        this.#touched.delete(id);
        removed = true;
      }
      this.#upsert(fresh, removed);
      this.#unreachableSaid = false;
      await this.#reseed();
      return true;
    } catch (error) {
      this.#failed(error, 'bans: PostgreSQL could not be read; the edge keeps the bans it has');
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.#reconcileTimer) clearInterval(this.#reconcileTimer);
    await this.#listener?.close();
    await this.#fanout?.close();
    this.#listeners.clear();
    await this.#reading?.catch(() => undefined);
    await this.#pool.end().catch(() => undefined);
  }

  #ready(): Promise<void> {
    this.#schema ??= (async () => {
      const { client, release } = await checkout(this.#pool);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.bansSchema]);
        await client.query(TABLE);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
        throw error;
      } finally {
        release(broken);
      }
    })().catch((error: unknown) => {
      this.#schema = null;
      throw error;
    });
    return this.#schema;
  }

  /** One transaction; PostgreSQL unreachable becomes 503 store_unavailable. */
  async #write(job: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    try {
      await this.#ready();
      const { client, release } = await checkout(this.#pool);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        await job(client);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
        throw error;
      } finally {
        release(broken);
      }
    } catch (error) {
      if (isUnreachable(error)) throw new WafctlError('store_unavailable', 'The shared ban store (PostgreSQL) is unreachable; retry later.');
      throw error;
    }
  }

  #readNotified(id: string): void {
    this.#notified.add(id);
    if (this.#reading) return;
    this.#reading = (async () => {
      while (this.#notified.size > 0) {
        const ids = [...this.#notified];
        this.#notified.clear();
        try {
          const { rows } = await this.#pool.query<BanRow>(`SELECT ${COLUMNS} FROM wafctl_bans WHERE id = ANY($1::uuid[])`, [ids]);
          this.#upsert(rows.map(banOf));
        } catch (error) {
          // The next reconcile (at the latest in 30 s) reads what this missed.
          this.#failed(error, 'bans: notified bans could not be read; the next reconcile brings them');
        }
      }
    })().finally(() => { this.#reading = null; });
  }

  /** Adds or replaces records (a later state of a ban wins: revoked over active); drops old ones. */
  #upsert(bans: readonly Ban[], changedBefore = false): void {
    const now = this.#clock();
    let changed = changedBefore;
    for (const ban of bans) {
      const held = this.#bans.get(ban.id);
      if (held && held.revoked_at !== null && ban.revoked_at === null) continue; // a stale copy of a lifted ban
      if (held && JSON.stringify(held) === JSON.stringify(ban)) continue;
      this.#bans.set(ban.id, ban);
      this.#touched.set(ban.id, ++this.#seq);
      changed = true;
    }
    for (const [id, b] of this.#bans) {
      if (!isKept(b, now)) {
        this.#bans.delete(id);
        this.#touched.delete(id);
        changed = true;
      }
    }
    if (!changed) return;
    this.#sorted = null;
    for (const listener of this.#listeners) listener();
  }

  /** Waited for (a millisecond on loopback) so Redis holds the ban when add() resolves; a failure only logs. */
  async #publish(bans: readonly Ban[]): Promise<void> {
    const fanout = this.#fanout;
    if (!fanout) return;
    await Promise.all(bans.map((ban) => fanout.publish(ban).catch((error: unknown) => this.#o.logger.warn({ err: error }, 'bans: Redis did not take a ban; the other nodes get it through PostgreSQL'))));
  }

  async #reseed(): Promise<void> {
    const now = this.#clock();
    await this.#fanout?.reseed([...this.#bans.values()].filter((b) => isActive(b, now))).catch(() => undefined);
  }

  #failed(error: unknown, message: string): void {
    if (!isUnreachable(error)) {
      this.#o.logger.error({ err: error }, message);
      return;
    }
    if (this.#unreachableSaid) return;
    this.#unreachableSaid = true;
    this.#o.logger.warn({ err: error, postgres: describePostgres(this.#o.url) }, message);
  }
}
