import type { Pool, PoolClient } from 'pg';
import { ConfigSchema, type Config } from '../../shared/schemas/config.js';
import { describeIssues } from '../../shared/schemas/issues.js';
import { migrateConfig, MIGRATIONS } from '../store/config/migrations.js';
import { ADVISORY_LOCKS } from './advisory-locks.js';

// The cluster's config in PostgreSQL: one row of one table, the whole Config document and its
// version. Every write takes the row lock, so writes from all nodes are serialised as a single
// daemon's are; the version only grows, and a node applies a document only if it is newer than
// what it has.

export const CONFIG_CHANNEL = 'wafctl_config';

export interface StoredConfig {
  version: number;
  doc: Config;
}

/**
 * Creates the table if this is the cluster's first node and seeds the row with `seed()` (the node's
 * own config, so a single node that joins a new cluster brings its sites). Later nodes find the row
 * and leave it alone. Returns the row as it is now.
 */
export async function ensureConfigRow(pool: Pool, seed: () => Config): Promise<{ stored: StoredConfig; seeded: boolean }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.configSchema]);
    await client.query(`CREATE TABLE IF NOT EXISTS wafctl_config (
      id smallint PRIMARY KEY CHECK (id = 1),
      version bigint NOT NULL,
      doc jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    const inserted = await client.query('INSERT INTO wafctl_config (id, version, doc) VALUES (1, 1, $1) ON CONFLICT (id) DO NOTHING', [JSON.stringify(seed())]);
    const row = await readRow(client);
    await client.query('COMMIT');
    return { stored: row, seeded: inserted.rowCount === 1 };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The row, read on `client` (inside the caller's transaction when it has one). */
export async function readRow(client: Pool | PoolClient, options: { forUpdate?: boolean } = {}): Promise<StoredConfig> {
  const result = await client.query<{ version: string; doc: unknown }>(`SELECT version, doc FROM wafctl_config WHERE id = 1${options.forUpdate ? ' FOR UPDATE' : ''}`);
  if (result.rowCount !== 1) throw new Error('the wafctl_config row is missing in PostgreSQL');
  return { version: Number(result.rows[0]!.version), doc: parseStoredDoc(result.rows[0]!.doc) };
}

/** The row only if its version is above `known`: the cheap question the poll and NOTIFY ask. */
export async function readNewerRow(pool: Pool, known: number): Promise<StoredConfig | null> {
  const result = await pool.query<{ version: string; doc: unknown }>('SELECT version, doc FROM wafctl_config WHERE id = 1 AND version > $1', [known]);
  if (result.rowCount !== 1) return null;
  return { version: Number(result.rows[0]!.version), doc: parseStoredDoc(result.rows[0]!.doc) };
}

/**
 * Writes `doc` as version+1 and announces it, inside the caller's transaction: the NOTIFY is
 * delivered only when that transaction commits, so no node hears of a version it cannot read.
 */
export async function writeRow(client: PoolClient, doc: Config, previous: number): Promise<number> {
  const next = previous + 1;
  await client.query('UPDATE wafctl_config SET version = $1, doc = $2, updated_at = now() WHERE id = 1', [next, JSON.stringify(doc)]);
  await client.query('SELECT pg_notify($1, $2)', [CONFIG_CHANNEL, String(next)]);
  return next;
}

/**
 * A stored document through the same migrations and schema as config.json. A document another node
 * wrote with a newer schema is refused: this node keeps what it has rather than misread it.
 */
export function parseStoredDoc(raw: unknown): Config {
  const migrated = migrateConfig(raw, MIGRATIONS);
  if (!migrated.ok) throw new Error(`the config in PostgreSQL is unusable: ${migrated.problem}`);
  const parsed = ConfigSchema.safeParse(migrated.doc);
  if (!parsed.success) throw new Error(`the config in PostgreSQL is invalid: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
