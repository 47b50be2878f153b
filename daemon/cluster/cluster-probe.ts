import pg from 'pg';
import { connectRedis } from '../store/redis/redis-connection.js';

// What `wafctl cluster join` looks at before it writes anything: whether the cluster's PostgreSQL
// answers and what is there (a cluster's config, the nodes that have shipped events, its sites),
// and whether its Redis answers. Read-only: joining takes effect at the node's next start.

export interface ClusterFound {
  /** The config document's version; null when no node has started the cluster yet. */
  version: number | null;
  /** Sites in the cluster's config (not deleted). */
  sites: number;
  /** Nodes that have registered (shipped WAF events) so far. */
  nodes: number;
}

export async function probePostgres(url: string): Promise<ClusterFound> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 10_000, application_name: `wafctl cluster join ${process.pid}` });
  client.on('error', () => undefined); // a dropped connection fails the query instead
  await client.connect();
  try {
    const tables = await client.query<{ config: string | null; nodes: string | null }>("SELECT to_regclass('wafctl_config') AS config, to_regclass('wafctl_nodes') AS nodes");
    const { config, nodes } = tables.rows[0]!;
    let found: ClusterFound = { version: null, sites: 0, nodes: 0 };
    if (config !== null) {
      const row = await client.query<{ version: string; sites: unknown }>("SELECT version, doc->'sites' AS sites FROM wafctl_config WHERE id = 1");
      if (row.rowCount === 1) {
        const sites = Array.isArray(row.rows[0]!.sites) ? (row.rows[0]!.sites as Array<{ status?: string }>) : [];
        found = { ...found, version: Number(row.rows[0]!.version), sites: sites.filter((s) => s.status !== 'deleted').length };
      }
    }
    if (nodes !== null) found.nodes = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM wafctl_nodes')).rows[0]!.n);
    return found;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Resolves when Redis answers a PING; rejects with its error (refused, timed out, a wrong password). */
export async function probeRedis(url: string): Promise<void> {
  const redis = connectRedis(url, `wafctl cluster join ${process.pid}`);
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}
