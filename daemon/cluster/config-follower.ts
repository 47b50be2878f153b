import pg from 'pg';
import type { Logger } from 'pino';
import { Backoff } from './backoff.js';
import { CONFIG_CHANNEL, readNewerRow, type StoredConfig } from './config-table.js';
import { describePostgres } from './postgres-target.js';
import { isUnreachable } from './unreachable.js';

// How a node learns of config changes made on any node: one dedicated connection LISTENs on the
// config channel and every notification triggers a re-read; every (re)connect re-reads too, since
// PostgreSQL never replays a notification sent while we were not listening. A poll of the version
// every few seconds is the fallback for a listener that died without us noticing, and it also
// pings that listener so a silently dead one is replaced.

export const POLL_MS = 5_000;
/** Reconnect delays of the listener: 0.5 s doubling to 2 s. */
const FIRST_RETRY_MS = 500;
// At most 2 s between tries: acceptance 7 asks for recovery within 5 s of the database coming back,
// and one connection attempt every 2 s while it is away costs nothing.
const MAX_RETRY_MS = 2_000;

export type RefreshCause = 'notify' | 'poll' | 'connect';

export interface FollowerDeps {
  url: string;
  /** Re-reads and the poll go through the store's pool; the listener has a connection of its own. */
  pool: pg.Pool;
  /** The version this node has applied. */
  known: () => number;
  /** Called with a newer row than known(); the store publishes it. */
  apply: (stored: StoredConfig, cause: RefreshCause) => void;
  logger: Logger;
  pollMs?: number;
  /** Shown in pg_stat_activity: tests and operators find a node's listener by it. */
  applicationName: string;
}

/** How changes reach this node (see ClusterConfigSchema in shared/schemas/admin.ts). */
export type FollowerState = 'listening' | 'polling' | 'unreachable';

export class ConfigFollower {
  readonly #deps: FollowerDeps;
  readonly #backoff = new Backoff(FIRST_RETRY_MS, MAX_RETRY_MS);
  #listener: pg.Client | null = null;
  /** Drops the current listener and schedules a reconnect. */
  #dropListener: (error?: Error) => void = () => undefined;
  #retryTimer: NodeJS.Timeout | null = null;
  #pollTimer: NodeJS.Timeout | null = null;
  #closed = false;
  #reachable = true;
  #refreshing: Promise<void> | null = null;
  #again = false;
  #state: FollowerState = 'polling';
  #stateSince = Date.now();

  constructor(deps: FollowerDeps) {
    this.#deps = deps;
  }

  /** What `daemon status` and `cluster status` show, with when it last changed (epoch ms). */
  get state(): { state: FollowerState; since: number } {
    return { state: this.#state, since: this.#stateSince };
  }

  start(): void {
    this.#connect();
    this.#pollTimer = setInterval(() => void this.#poll(), this.#deps.pollMs ?? POLL_MS);
    this.#pollTimer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#pollTimer) clearInterval(this.#pollTimer);
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    const listener = this.#listener;
    this.#listener = null;
    await listener?.end().catch(() => undefined);
    await this.#refreshing?.catch(() => undefined);
  }

  /** Reads the row if it is newer than ours; calls that arrive meanwhile make one more read, not one each. */
  refresh(cause: RefreshCause): Promise<void> {
    if (this.#refreshing) {
      this.#again = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      do {
        this.#again = false;
        await this.#readOnce(cause);
      } while (this.#again && !this.#closed);
    })().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #readOnce(cause: RefreshCause): Promise<void> {
    try {
      const newer = await readNewerRow(this.#deps.pool, this.#deps.known());
      this.#markReachable(true);
      if (newer) this.#deps.apply(newer, cause);
    } catch (error) {
      if (isUnreachable(error)) this.#markReachable(false, error);
      // A document this node cannot read (a newer schema, a hand-edited row) is not applied; the
      // node keeps serving what it has and says so each time it looks.
      else this.#deps.logger.error({ err: error }, 'cluster config: the stored config was not applied');
    }
  }

  #connect(): void {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.#deps.url,
      application_name: this.#deps.applicationName,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
      keepAlive: true,
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.#listener === client) this.#listener = null;
      this.#noteState();
      client.end().catch(() => undefined);
      if (this.#closed) return;
      const delay = this.#backoff.next();
      this.#deps.logger.warn({ err: error, retry_ms: delay }, 'cluster config: the LISTEN connection was lost; reconnecting');
      this.#retryTimer = setTimeout(() => this.#connect(), delay);
      this.#retryTimer.unref();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel === CONFIG_CHANNEL) void this.refresh('notify');
    });
    void (async () => {
      try {
        await client.connect();
        // LISTEN before the re-read: a change committed in between is then either read or notified.
        await client.query(`LISTEN ${CONFIG_CHANNEL}`);
      } catch (error) {
        onLost(error as Error);
        return;
      }
      if (this.#closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.#listener = client;
      this.#noteState();
      this.#dropListener = onLost;
      this.#backoff.reset();
      this.#deps.logger.info({ postgres: describePostgres(this.#deps.url) }, 'cluster config: listening for changes');
      await this.refresh('connect');
    })();
  }

  async #poll(): Promise<void> {
    await this.refresh('poll');
    // A listener whose socket died without a FIN or RST looks connected forever: a query on it
    // either answers or times out, and a timeout drops it (its 'error' reconnects).
    const listener = this.#listener;
    if (listener === null) return;
    try {
      await listener.query('SELECT 1');
    } catch (error) {
      if (this.#listener === listener) this.#dropListener(error as Error);
    }
  }

  /** Called after the listener or reachability changed. */
  #noteState(): void {
    const state: FollowerState = !this.#reachable ? 'unreachable' : this.#listener !== null ? 'listening' : 'polling';
    if (state === this.#state) return;
    this.#state = state;
    this.#stateSince = Date.now();
  }

  #markReachable(reachable: boolean, error?: unknown): void {
    if (reachable === this.#reachable) return;
    this.#reachable = reachable;
    this.#noteState();
    const postgres = describePostgres(this.#deps.url);
    if (reachable) this.#deps.logger.info({ postgres }, 'cluster config: PostgreSQL reachable again');
    else this.#deps.logger.warn({ postgres, err: error }, 'cluster config: PostgreSQL unreachable; serving the last config, management writes answer 503');
  }
}
