// The cluster's WAF event and access rollup tables in PostgreSQL, created by whichever node starts first (under an
// advisory lock, so two first starts do not race) and left alone by the others. `waf_events` is
// partitioned by week of event time: 90 daily partitions measured 10-25 ms slower on every search
// (shared/design/scale-out.md, section 4). Keys are filled in by the shipper exactly as the JSONL
// index derives them (waf-event-row.ts), so a search means the same thing in both stores.
import type { Pool } from 'pg';
import { ADVISORY_LOCKS } from '../advisory-locks.js';
import { checkout } from './checkout.js';

const TABLES = `
CREATE TABLE IF NOT EXISTS wafctl_nodes (
  node_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  node_key uuid NOT NULL UNIQUE,
  hostname text NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS wafctl_ship_cursor (
  node_id integer NOT NULL REFERENCES wafctl_nodes (node_id),
  kind text NOT NULL,
  local_id bigint NOT NULL,
  shipped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (node_id, kind)
);
CREATE TABLE IF NOT EXISTS waf_events (
  id bigint GENERATED ALWAYS AS IDENTITY,
  ts timestamptz NOT NULL,
  site_id bigint NOT NULL,
  node_id integer NOT NULL,
  local_id bigint NOT NULL,
  client_ip inet,
  rule_key text NOT NULL,
  grp_key text NOT NULL,
  uri_key text NOT NULL,
  uri_decoded text,
  request_id text,
  doc json NOT NULL,
  UNIQUE (node_id, local_id, ts)
) PARTITION BY RANGE (ts);
CREATE INDEX IF NOT EXISTS waf_events_site_ts ON waf_events (site_id, ts DESC, id DESC);
CREATE INDEX IF NOT EXISTS waf_events_site_ip ON waf_events (site_id, client_ip, ts DESC, id DESC);
CREATE INDEX IF NOT EXISTS waf_events_site_rule ON waf_events (site_id, rule_key, ts DESC, id DESC);
CREATE INDEX IF NOT EXISTS waf_events_site_group ON waf_events (site_id, grp_key, ts DESC, id DESC);
CREATE INDEX IF NOT EXISTS waf_events_id ON waf_events (id);
CREATE INDEX IF NOT EXISTS waf_events_site_request ON waf_events (site_id, request_id) WHERE request_id IS NOT NULL;
-- Access rollups (access-deltas.ts): each shipped batch adds deltas; the compactor folds them into
-- one row per site and hour and one sketch per site and UTC day. hour and day count from the epoch.
CREATE TABLE IF NOT EXISTS access_deltas (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id bigint NOT NULL,
  hour integer NOT NULL,
  node_id integer NOT NULL,
  requests bigint NOT NULL,
  blocked bigint NOT NULL,
  visitors bytea NOT NULL
);
CREATE INDEX IF NOT EXISTS access_deltas_site_hour ON access_deltas (site_id, hour);
CREATE TABLE IF NOT EXISTS access_hourly (
  site_id bigint NOT NULL,
  hour integer NOT NULL,
  requests bigint NOT NULL,
  blocked bigint NOT NULL,
  visitors bytea NOT NULL,
  PRIMARY KEY (site_id, hour)
);
CREATE TABLE IF NOT EXISTS access_daily (
  site_id bigint NOT NULL,
  day integer NOT NULL,
  visitors bytea NOT NULL,
  PRIMARY KEY (site_id, day)
);
`;

// URI substring search without a trigram index reads every row of the site (578 ms instead of
// 1.7 ms for a needle with no match at 1M events). pg_trgm is a trusted extension from
// PostgreSQL 13 on, so a database owner may create it; without it searches still work, slower.
const TRIGRAM = `CREATE INDEX IF NOT EXISTS waf_events_uri_trgm ON waf_events USING gin (uri_key gin_trgm_ops)`;

export interface SchemaReport {
  /** False when pg_trgm could not be created: URI searches scan. */
  trigram: boolean;
}

export async function ensureEventsSchema(pool: Pool): Promise<SchemaReport> {
  const { client, release } = await checkout(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.eventsSchema]);
    await client.query(TABLES);
    await client.query('SAVEPOINT trigram');
    let trigram = true;
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await client.query(TRIGRAM);
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT trigram');
      trigram = false;
    }
    await client.query('COMMIT');
    return { trigram };
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
    throw error;
  } finally {
    release(broken);
  }
}
