import pg from 'pg';
import { ADVISORY_LOCKS } from './advisory-locks.js';
import { describePostgres } from './postgres-target.js';

// Secrets every node of a cluster must hold the same (shared/design/scale-out.md, section 5.1).
// Today one: the key that signs the JS challenge's tokens and pass cookies. Behind a load balancer
// a visitor who solved the challenge on one node is sent to the next, which must accept the
// cookie. The first node to start stores its own key (so a single node that joins a new cluster
// keeps its visitors' cookies valid); every other node adopts that one.


/** The smallest secret accepted from PostgreSQL (the node's own are 32 random bytes). */
const MIN_SECRET_BYTES = 32;

/** The cluster's value of the secret `name`, storing `mine` when the cluster has none yet. */
export async function sharedSecret(url: string, name: string, mine: Buffer): Promise<Buffer> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 10_000, application_name: `wafctl secrets ${process.pid}` });
  client.on('error', () => undefined); // a dropped connection fails the query below instead
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.secrets]);
    await client.query(`CREATE TABLE IF NOT EXISTS wafctl_secrets (
      name text PRIMARY KEY,
      value bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await client.query('INSERT INTO wafctl_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, mine]);
    const { rows } = await client.query<{ value: Buffer }>('SELECT value FROM wafctl_secrets WHERE name = $1', [name]);
    await client.query('COMMIT');
    const value = rows[0]?.value;
    if (value === undefined || value.length < MIN_SECRET_BYTES) {
      throw new Error(`the secret ${name} in PostgreSQL (${describePostgres(url)}) is shorter than ${MIN_SECRET_BYTES} bytes`);
    }
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
