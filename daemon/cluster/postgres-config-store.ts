import { chmod } from 'node:fs/promises';
import { hostname } from 'node:os';
import pg from 'pg';
import type { Logger } from 'pino';
import { WafctlError } from '../../shared/errors.js';
import { ConfigSchema, emptyConfig, type Config } from '../../shared/schemas/config.js';
import { describeIssues } from '../../shared/schemas/issues.js';
import type { ClusterConfig } from '../../shared/schemas/admin.js';
import { StartupError } from '../lifecycle/startup-errors.js';
import { deepFreeze, readConfigFile, type ChangeListener, type ChangeReason, type ConfigSnapshot, type ConfigStore, type Loaded } from '../store/config/config-store.js';
import { CONFIG_FILE_MODE, DurableJsonFile } from '../store/config/durable-json-file.js';
import { ConfigFollower, type RefreshCause } from './config-follower.js';
import { ensureConfigRow, readRow, writeRow, type StoredConfig } from './config-table.js';
import { describePostgres } from './postgres-target.js';
import { isUnreachable } from './unreachable.js';

// The config store of a cluster node (--cluster-postgres): the same ConfigStore contract as the
// config.json store, with the document in one PostgreSQL row shared by every node. A write mutates
// a copy of the row's current document under its row lock, is checked by the same zod schema and
// commits as version+1 with a NOTIFY; the follower brings every node's changes here and onChange
// publishes them to the edge as before. <data>/config.json becomes this node's cache of the last
// document it applied, so it can start and serve while PostgreSQL is down.

export interface ClusterStoreOptions {
  url: string;
  /** <data>/config.json: the cache, and the seed when this node is the cluster's first. */
  cacheFile: string;
  logger: Logger;
  now?: () => Date;
  pollMs?: number;
}

/** A cluster node's config store, which can also say how it follows the cluster. */
export interface ClusterConfigStore extends ConfigStore {
  clusterStatus(): ClusterConfig;
}

export async function openPostgresConfigStore(options: ClusterStoreOptions): Promise<ClusterConfigStore> {
  const { url, cacheFile, logger } = options;
  const now = options.now ?? (() => new Date());
  const postgres = describePostgres(url);
  const pool = new pg.Pool({
    connectionString: url,
    application_name: `wafctl ${process.pid}`,
    max: 4,
    // Fail a write in seconds rather than hold its API request while PostgreSQL is gone.
    connectionTimeoutMillis: 5_000,
    query_timeout: 10_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  // An idle pooled connection that breaks is dropped by the pool; unhandled, the event would kill the daemon.
  pool.on('error', (error) => logger.warn({ err: error, postgres }, 'cluster config: an idle PostgreSQL connection failed'));

  const cache = await readConfigFile(cacheFile);
  let start: StoredConfig;
  try {
    const { stored, seeded } = await ensureConfigRow(pool, () => cache?.config ?? emptyConfig(now().toISOString()));
    if (seeded) logger.info({ postgres, from: cache ? cacheFile : 'an empty config' }, 'cluster config: first node, stored this node\'s config in PostgreSQL');
    start = stored;
  } catch (error) {
    start = await startFromCache(error, cache, { postgres, cacheFile, logger, pool });
  }

  const store = new PostgresConfigStore({ pool, cacheFile, logger, url, start, postgres });
  if (start.version > 0) await store.writeCache();
  // A cache left by the single-node store with another mode is made private like config.json.
  await chmod(cacheFile, CONFIG_FILE_MODE).catch(() => undefined);
  store.follow(options.pollMs);
  return store;
}

async function startFromCache(error: unknown, cache: Loaded | null, where: { postgres: string; cacheFile: string; logger: Logger; pool: pg.Pool }): Promise<StoredConfig> {
  if (!isUnreachable(error)) {
    await where.pool.end().catch(() => undefined);
    throw new StartupError(`cluster config in PostgreSQL (${where.postgres}) cannot be used: ${(error as Error).message}`);
  }
  if (cache === null) {
    await where.pool.end().catch(() => undefined);
    throw new StartupError(`PostgreSQL (${where.postgres}) is unreachable and ${where.cacheFile} holds no cached config: a node's first start needs PostgreSQL`);
  }
  where.logger.warn({ postgres: where.postgres, err: error, cache: where.cacheFile }, 'cluster config: PostgreSQL unreachable, starting from the cached config; management writes answer 503 until it is back');
  // Version 0: whatever PostgreSQL holds once it answers is newer and replaces the cache.
  return { version: 0, doc: cache.config };
}

interface Parts {
  pool: pg.Pool;
  cacheFile: string;
  logger: Logger;
  url: string;
  start: StoredConfig;
  postgres: string;
}

class PostgresConfigStore implements ClusterConfigStore {
  readonly file: string;
  readonly #pool: pg.Pool;
  readonly #cache: DurableJsonFile<Config>;
  readonly #logger: Logger;
  readonly #url: string;
  readonly #postgres: string;
  readonly #listeners = new Set<ChangeListener>();
  #current: ConfigSnapshot;
  #version: number;
  #queue: Promise<unknown> = Promise.resolve();
  #cacheWrite: Promise<void> = Promise.resolve();
  #follower: ConfigFollower | null = null;

  constructor(parts: Parts) {
    this.file = parts.cacheFile;
    this.#pool = parts.pool;
    this.#cache = new DurableJsonFile<Config>(parts.cacheFile);
    this.#logger = parts.logger;
    this.#url = parts.url;
    this.#postgres = parts.postgres;
    this.#version = parts.start.version;
    this.#current = deepFreeze(structuredClone(parts.start.doc));
  }

  follow(pollMs?: number): void {
    this.#follower = new ConfigFollower({
      url: this.#url,
      pool: this.#pool,
      known: () => this.#version,
      apply: (stored, cause) => this.#applyRemote(stored, cause),
      logger: this.#logger,
      pollMs,
      applicationName: `wafctl config listener ${process.pid} ${hostname()}`.slice(0, 63),
    });
    this.#follower.start();
  }

  snapshot(): ConfigSnapshot {
    return this.#current;
  }

  clusterStatus(): ClusterConfig {
    // Before follow() (never, once open) the node has read PostgreSQL or its cache, nothing more.
    const { state, since } = this.#follower?.state ?? { state: 'polling' as const, since: Date.now() };
    return { backend: 'postgres', postgres: this.#postgres, version: this.#version, state, since: new Date(since).toISOString() };
  }

  update<R>(mutate: (draft: Config) => R): Promise<R> {
    return this.#serial(async () => {
      let client: pg.PoolClient;
      try {
        client = await this.#pool.connect();
      } catch (error) {
        throw this.#unavailable(error);
      }
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        // The row as the cluster has it now, locked: writes from every node run one at a time, and
        // each mutates the latest document, never this node's possibly older copy.
        const row = await readRow(client, { forUpdate: true });
        const draft = structuredClone(row.doc);
        const result = mutate(draft);
        const checked = ConfigSchema.safeParse(draft);
        if (!checked.success) throw new Error(`refusing to store an invalid config: ${describeIssues(checked.error)}`);
        const version = await writeRow(client, checked.data, row.version);
        await client.query('COMMIT');
        // The follower may already have applied a later write of another node: never step back.
        if (version > this.#version) this.#publish({ version, doc: checked.data }, 'update');
        await this.#cacheWrite;
        return result;
      } catch (error) {
        if (isUnreachable(error)) {
          broken = error as Error;
          throw this.#unavailable(error);
        }
        await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
        throw error;
      } finally {
        // A connection that failed mid-transaction is not given back to the pool.
        client.release(broken);
      }
    });
  }

  reload(): Promise<{ ok: true } | { ok: false; message: string }> {
    return this.#serial(async () => {
      try {
        const row = await readRow(this.#pool);
        if (row.version >= this.#version) this.#publish(row, 'reload');
        return { ok: true as const };
      } catch (error) {
        if (isUnreachable(error)) return { ok: false as const, message: `PostgreSQL (${this.#postgres}) is unreachable; kept the running config` };
        return { ok: false as const, message: `${(error as Error).message}; kept the running config` };
      }
    });
  }

  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async flush(): Promise<void> {
    await this.#queue.catch(() => undefined);
    await this.#cacheWrite;
  }

  async close(): Promise<void> {
    await this.#follower?.close();
    await this.flush();
    await this.#pool.end().catch(() => undefined);
  }

  /** Writes the current document to the cache file; the write queue keeps them in order. */
  writeCache(): Promise<void> {
    const doc = this.#current as Config;
    const write = this.#cache.write(doc).catch((error: Error) => {
      // The cache only matters for a start while PostgreSQL is down: a failed write is logged, and
      // the next change writes it again.
      this.#logger.error({ err: error, file: this.file }, 'cluster config: the cache file could not be written');
    });
    this.#cacheWrite = write;
    return write;
  }

  #applyRemote(stored: StoredConfig, cause: RefreshCause): void {
    if (stored.version <= this.#version) return;
    this.#logger.info({ version: stored.version, cause }, 'cluster config: applied a change');
    this.#publish(stored, 'update');
  }

  #publish(stored: StoredConfig, reason: ChangeReason): void {
    this.#version = Math.max(this.#version, stored.version);
    this.#current = deepFreeze(structuredClone(stored.doc));
    void this.writeCache();
    for (const listener of this.#listeners) listener(this.#current, reason);
  }

  #unavailable(error: unknown): WafctlError {
    this.#logger.warn({ err: error, postgres: this.#postgres }, 'cluster config: a write failed, PostgreSQL unreachable');
    return new WafctlError('store_unavailable');
  }

  #serial<R>(task: () => Promise<R>): Promise<R> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
