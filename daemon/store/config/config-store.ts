import { chmod, copyFile, stat } from 'node:fs/promises';
import { WafctlError } from '../../../shared/errors.js';
import { Low } from 'lowdb';
import { ConfigSchema, emptyConfig, type Config } from '../../../shared/schemas/config.js';
import { describeIssues } from '../../../shared/schemas/issues.js';
import { CONFIG_FILE_MODE, DurableJsonFile } from './durable-json-file.js';
import { migrateConfig, type MigrationTable, MIGRATIONS } from './migrations.js';

// The config store: <data>/config.json through lowdb, validated with zod on load and before every
// write, one writer (this process; the pid lock keeps other daemons out). Readers get immutable
// snapshots; every accepted change or reload is announced on onChange, which is how the data plane
// learns about new settings without a restart.

export type ConfigSnapshot = Readonly<Config>;
export type ChangeReason = 'update' | 'reload';
export type ChangeListener = (snapshot: ConfigSnapshot, reason: ChangeReason) => void;

export interface ConfigStore {
  readonly file: string;
  snapshot(): ConfigSnapshot;
  /** Runs `mutate` on a private copy; if it throws, or the result is invalid, nothing changes. */
  update<R>(mutate: (draft: Config) => R): Promise<R>;
  /** Re-reads the file; an invalid file is refused and the current config stays. */
  reload(): Promise<{ ok: true } | { ok: false; message: string }>;
  onChange(listener: ChangeListener): () => void;
  /** Resolves once queued writes are on disk. */
  flush(): Promise<void>;
  /** Stops what the store runs in the background (the cluster store's connections); after flush. */
  close?(): Promise<void>;
}

/** The config file cannot be used; the message names the file and the problem. */
export class ConfigFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigFileError';
  }
}

export interface OpenOptions {
  now?: () => Date;
  migrations?: MigrationTable;
  targetVersion?: number;
}

export async function openConfigStore(file: string, options: OpenOptions = {}): Promise<ConfigStore> {
  const now = options.now ?? (() => new Date());
  const adapter = new DurableJsonFile<Config>(file);
  const loaded = await readValid(adapter, file, options);
  const db = new Low<Config>(adapter, loaded?.config ?? emptyConfig(now().toISOString()));
  if (loaded === null) {
    await db.write();
  } else if (loaded.migrated) {
    await copyFile(file, `${file}.v${loaded.from}.bak`);
    await db.write();
  }
  await chmod(file, CONFIG_FILE_MODE);
  return new LowdbConfigStore(file, db, adapter, options, await fingerprint(file));
}

export type Loaded = { config: Config; migrated: boolean; from: number };

/** Reads and validates a config file (migrated in memory); null when there is none. */
export async function readConfigFile(file: string, options: OpenOptions = {}): Promise<Loaded | null> {
  return readValid(new DurableJsonFile<Config>(file), file, options);
}

async function readValid(adapter: DurableJsonFile<Config>, file: string, options: OpenOptions): Promise<Loaded | null> {
  let raw: unknown;
  try {
    raw = await adapter.read();
  } catch (error) {
    if (error instanceof SyntaxError) throw new ConfigFileError(`config file ${file} is not valid JSON (${error.message}); fix or move it, it was left untouched`);
    throw new ConfigFileError(`config file ${file} cannot be read: ${(error as Error).message}`);
  }
  if (raw === null) return null;
  const migrated = migrateConfig(raw, options.migrations ?? MIGRATIONS, options.targetVersion);
  if (!migrated.ok) throw new ConfigFileError(`config file ${file} is invalid: ${migrated.problem}; it was left untouched`);
  const parsed = ConfigSchema.safeParse(migrated.doc);
  if (!parsed.success) throw new ConfigFileError(`config file ${file} is invalid: ${describeIssues(parsed.error)}; it was left untouched`);
  return { config: parsed.data, migrated: migrated.migrated, from: migrated.from };
}

class LowdbConfigStore implements ConfigStore {
  readonly file: string;
  readonly #db: Low<Config>;
  readonly #adapter: DurableJsonFile<Config>;
  readonly #options: OpenOptions;
  readonly #listeners = new Set<ChangeListener>();
  #current: ConfigSnapshot;
  #queue: Promise<unknown> = Promise.resolve();
  /** What config.json looked like after our last read or write: a different file means a hand edit. */
  #onDisk: string;

  constructor(file: string, db: Low<Config>, adapter: DurableJsonFile<Config>, options: OpenOptions, onDisk: string) {
    this.file = file;
    this.#onDisk = onDisk;
    this.#db = db;
    this.#adapter = adapter;
    this.#options = options;
    this.#current = deepFreeze(structuredClone(db.data));
  }

  snapshot(): ConfigSnapshot {
    return this.#current;
  }

  update<R>(mutate: (draft: Config) => R): Promise<R> {
    return this.#serial(async () => {
      if ((await fingerprint(this.file)) !== this.#onDisk) {
        throw new WafctlError('config_conflict', `${this.file} was changed on disk since the daemon read it; run \`wafctl daemon reload\` first (nothing was changed)`);
      }
      const draft = structuredClone(this.#current) as Config;
      const result = mutate(draft);
      const checked = ConfigSchema.safeParse(draft);
      if (!checked.success) throw new Error(`refusing to store an invalid config: ${describeIssues(checked.error)}`);
      this.#db.data = checked.data;
      await this.#db.write();
      this.#onDisk = await fingerprint(this.file);
      this.#publish(checked.data, 'update');
      return result;
    });
  }

  reload(): Promise<{ ok: true } | { ok: false; message: string }> {
    return this.#serial(async () => {
      try {
        const seen = await fingerprint(this.file);
        const loaded = await readValid(this.#adapter, this.file, this.#options);
        if (loaded === null) return { ok: false as const, message: `config file ${this.file} is missing; kept the running config` };
        if (loaded.migrated) return { ok: false as const, message: `config file ${this.file} has an older schema_version; restart the daemon to migrate it` };
        this.#db.data = loaded.config;
        this.#onDisk = seen;
        this.#publish(loaded.config, 'reload');
        return { ok: true as const };
      } catch (error) {
        if (error instanceof ConfigFileError) return { ok: false as const, message: error.message.replace('it was left untouched', 'kept the running config') };
        throw error;
      }
    });
  }

  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async flush(): Promise<void> {
    await this.#queue.catch(() => undefined);
  }

  #publish(config: Config, reason: ChangeReason): void {
    this.#current = deepFreeze(structuredClone(config));
    for (const listener of this.#listeners) listener(this.#current, reason);
  }

  #serial<R>(task: () => Promise<R>): Promise<R> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

async function fingerprint(file: string): Promise<string> {
  try {
    const info = await stat(file);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
