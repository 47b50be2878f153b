// Bans through Redis (--cluster-redis): each new or lifted ban is published whole on
// `wafctl:bans`, so every node applies it without a PostgreSQL round trip, and each ban is also a
// key `wafctl:ban:<id>` holding its last state, which expires with the ban (SET ... PXAT:
// absolute, so a late write never lengthens a ban). The keys are what a node reads when it starts
// while PostgreSQL is down; a Redis restarted empty gets them back from the next reconcile
// (reseed), which also runs as soon as the connection is ready again. A lifted ban keeps its key
// (revoked) until its expiry and a reseed only sets keys that are missing (NX), so a node whose
// copy has not heard of a lift yet cannot bring the ban back in Redis. PostgreSQL stays the
// record: Redis only carries and caches.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { BanSchema, type Ban } from '../../../shared/schemas/bans.js';
import { describeRedis } from '../../store/redis/redis-connection.js';

const CHANNEL = 'wafctl:bans';
const KEY_PREFIX = 'wafctl:ban:';
/** How long a node starting without PostgreSQL waits for Redis before starting with no bans. */
const READ_WAIT_MS = 3_000;

export interface BanFanoutOptions {
  url: string;
  onBan(ban: Ban): void;
  /** The command connection is ready for the first time: the live bans' keys can be set. */
  onFirstReady(): void;
  /** A connection is ready again: a Redis that restarted wants its keys back, and messages sent
   *  while the subscriber was away were missed (the caller reads PostgreSQL again). */
  onReconnect(): void;
  logger: Logger;
}

export class BanFanout {
  readonly #cmd: Redis;
  readonly #sub: Redis;
  readonly #logger: Logger;
  /** Settles once the first SUBSCRIBE is answered (or refused): bans published before are missed. */
  readonly subscribed: Promise<void>;

  constructor(o: BanFanoutOptions) {
    this.#logger = o.logger;
    const common = { connectTimeout: 2_000, lazyConnect: true, retryStrategy: (times: number) => Math.min(times * 100, 2_000) };
    // Calls fail at once while disconnected (the caller falls back on PostgreSQL); the subscriber
    // queues its SUBSCRIBE until it connects and subscribes again after every reconnect.
    this.#cmd = new Redis(o.url, { ...common, commandTimeout: 1_000, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectionName: `wafctl-bans-${process.pid}` });
    this.#sub = new Redis(o.url, { ...common, connectionName: `wafctl-bans-sub-${process.pid}` });
    for (const r of [this.#cmd, this.#sub]) r.on('error', () => undefined);
    let cmdFirst = true;
    this.#cmd.on('ready', () => {
      if (cmdFirst) o.onFirstReady(); else o.onReconnect();
      cmdFirst = false;
    });
    // ioredis subscribes again after a reconnect; what was published meanwhile is read from PostgreSQL.
    let subFirst = true;
    this.#sub.on('ready', () => {
      if (!subFirst) o.onReconnect();
      subFirst = false;
    });
    this.#sub.on('message', (channel: string, message: string) => {
      if (channel !== CHANNEL) return;
      const parsed = parseBan(message);
      if (parsed) o.onBan(parsed);
      else this.#logger.warn({ redis: describeRedis(o.url) }, 'bans: a message on wafctl:bans is not a ban; ignored');
    });
    this.#cmd.connect().catch(() => undefined);
    this.#sub.connect().catch(() => undefined);
    this.subscribed = this.#sub.subscribe(CHANNEL).then(
      () => undefined,
      (error: unknown) => { this.#logger.warn({ err: error }, 'bans: could not subscribe to wafctl:bans'); },
    );
  }

  /** Sends a new or lifted ban to every node and sets (or deletes) its key. */
  async publish(ban: Ban): Promise<void> {
    const json = JSON.stringify(ban);
    const expires = Date.parse(ban.expires_at);
    const multi = this.#cmd.multi();
    if (expires > Date.now()) multi.set(KEY_PREFIX + ban.id, json, 'PXAT', expires);
    else multi.del(KEY_PREFIX + ban.id);
    multi.publish(CHANNEL, json);
    await multi.exec();
  }

  /** Sets the missing keys of the live bans (after a reconcile, or a Redis that came back). */
  async reseed(live: readonly Ban[]): Promise<void> {
    if (live.length === 0) return;
    const multi = this.#cmd.multi();
    for (const ban of live) multi.set(KEY_PREFIX + ban.id, JSON.stringify(ban), 'PXAT', Date.parse(ban.expires_at), 'NX');
    await multi.exec();
  }

  /** The live bans Redis holds (a node starting while PostgreSQL is down). */
  async read(): Promise<Ban[]> {
    await this.#ready(READ_WAIT_MS);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.#cmd.scan(cursor, 'MATCH', `${KEY_PREFIX}*`, 'COUNT', 1_000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    if (keys.length === 0) return [];
    const values = await this.#cmd.mget(...keys);
    return values.flatMap((v) => {
      const ban = v === null ? null : parseBan(v);
      return ban ? [ban] : [];
    });
  }

  /** Waits (at most `ms`) for the command connection: it was only just opened at start. */
  async #ready(ms: number): Promise<void> {
    if (this.#cmd.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => { this.#cmd.off('ready', done); reject(new Error(`Redis not ready within ${ms} ms`)); }, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#cmd.once('ready', done);
    });
  }

  async close(): Promise<void> {
    this.#cmd.disconnect();
    this.#sub.disconnect();
  }
}

function parseBan(text: string): Ban | null {
  try {
    const parsed = BanSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
