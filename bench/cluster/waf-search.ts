// /waf-logs over PostgreSQL at scale (scale-out B4): page 1 with its exact total, by kind of term,
// at --rows events (1M, then 10M). Targets at 1M and 10M: IP/CIDR <= 10 ms, rule/group/none
// <= 100 ms, URI <= 250 ms (the JSONL store: 0.04-0.16 ms and 2.9 ms at 1M).
//
// The rows are made by PostgreSQL itself (INSERT ... SELECT FROM generate_series: loading 10M
// rows through the shipper would take most of an hour and measure the shipper, which
// waf-events.ts does), with the keys the shipper would write: ten sites (one with 40 % of the
// events), 90 days of time, 200k client addresses (a few heavy hitters), 300 rules in 3 groups,
// 20k URIs. Every search asks for different values (terms drawn per run), as real operators do.
//
//   node --import tsx bench/cluster/waf-search.ts [--rows 1000000] [--runs 20] [--json FILE]
// PostgreSQL: $WAFCTL_TEST_POSTGRES, else a throwaway one (scripts/test-services/postgres.sh).
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ensureEventsSchema } from '../../daemon/cluster/events/events-schema.js';
import { searchWafLogsPg } from '../../daemon/cluster/events/pg-waf-search.js';
import { createWeeks, visibleFromMs, weekOfMs } from '../../daemon/cluster/events/week-partitions.js';
import { freshDatabase, testPostgres } from '../../test/cluster/postgres.js';

const { values: args } = parseArgs({ options: {
  rows: { type: 'string', default: '1000000' },
  runs: { type: 'string', default: '20' },
  json: { type: 'string' },
} });
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);
const NOW = Date.now();
const DAY = 86_400_000;
const RETENTION = 90;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
};
const round = (ms: number) => Math.round(ms * 100) / 100;

/** Rows in chunks of a million, each one INSERT ... SELECT; the keys as waf-event-row.ts derives them. */
async function fill(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const weeks = new Set<number>();
    for (let t = NOW - RETENTION * DAY; t <= NOW + DAY; t += DAY) weeks.add(weekOfMs(t));
    await client.query('BEGIN');
    await createWeeks(client, weeks);
    await client.query('COMMIT');
    for (let from = 0; from < ROWS; from += 1_000_000) {
      const to = Math.min(ROWS, from + 1_000_000) - 1;
      await client.query(`
        INSERT INTO waf_events (ts, site_id, node_id, local_id, client_ip, rule_key, grp_key, uri_key, uri_decoded, request_id, doc)
        SELECT to_timestamp(($1::bigint - (hashint8(g) & 2147483647) % ($2::bigint)) / 1000.0),
               CASE WHEN g % 5 < 2 THEN 1 ELSE 2 + g % 9 END,
               1 + g % 3, g,
               CASE WHEN g % 50 = 0 THEN '203.0.113.' || (g % 7) ELSE '10.' || ((hashint8(g * 7) & 2147483647) % 200000 / 65536) || '.' || ((hashint8(g * 7) & 2147483647) % 65536 / 256) || '.' || ((hashint8(g * 7) & 2147483647) % 256) END::inet,
               (942000 + (hashint8(g * 13) & 2147483647) % 300)::text,
               (ARRAY['crs', 'cms', 'rate-limit'])[1 + g % 3],
               '/shop/item/' || ((hashint8(g * 17) & 2147483647) % 20000) || '?q=' || (g % 97),
               NULL, NULL,
               json_build_object('timestamp_ms', 0, 'rule_id', '942100', 'group', 'crs', 'client_ip', '10.0.0.1', 'uri', '/', 'host', 'bench.test')
        FROM generate_series($3::bigint, $4::bigint) AS g`,
        [NOW, RETENTION * DAY, from, to]);
      console.log(`  ${to + 1} rows`);
    }
    await client.query('ANALYZE waf_events');
  } finally {
    client.release();
  }
}

type Kind = 'none' | 'ip' | 'cidr' | 'rule' | 'group' | 'uri-common' | 'uri-rare';

/** Run `i`'s search term of each kind: a different value each run. */
function term(kind: Kind, i: number): string | undefined {
  switch (kind) {
    case 'none': return undefined;
    case 'ip': return i % 2 === 0 ? `203.0.113.${i % 7}` : `10.${i % 3}.${(i * 37) % 256}.${(i * 91) % 256}`;
    case 'cidr': return i % 2 === 0 ? '203.0.113.0/24' : `10.${i % 3}.${(i * 37) % 256}.0/24`;
    case 'rule': return String(942000 + ((i * 7) % 300));
    case 'group': return ['crs', 'cms', 'rate-limit'][i % 3];
    case 'uri-common': return `uri:/shop/item/${100 + i}`;
    case 'uri-rare': return `uri:/shop/item/${10_000 + i * 13}?q=${i % 97}`;
  }
}

async function run(): Promise<void> {
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const server = await testPostgres();
  if (!server.ok) throw new Error(server.skip);
  const pool = new pg.Pool({ connectionString: await freshDatabase(server.url), max: 2 });
  const results: Record<string, { p50: number; p99: number; max: number }> = {};
  try {
    await ensureEventsSchema(pool);
    const t0 = performance.now();
    await fill(pool);
    console.log(`filled ${ROWS} rows in ${Math.round((performance.now() - t0) / 1000)} s`);
    const visibleFrom = visibleFromMs(NOW, RETENTION);
    for (const kind of ['ip', 'cidr', 'rule', 'group', 'none', 'uri-rare', 'uri-common'] as Kind[]) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const site = i % 4 === 0 ? 1 : 2 + (i % 9);
        const started = performance.now();
        await searchWafLogsPg(pool, { site_id: site, page: 1, per_page: 25, search: term(kind, i) }, visibleFrom, 60_000);
        times.push(performance.now() - started);
      }
      results[kind] = { p50: round(percentile(times, 0.5)), p99: round(percentile(times, 0.99)), max: round(Math.max(...times)) };
      console.log(`${kind.padEnd(10)} p50 ${results[kind].p50} ms, p99 ${results[kind].p99} ms, max ${results[kind].max} ms (${RUNS} runs, page 1 with exact total)`);
    }
  } finally {
    await pool.end();
    await server.stop();
  }
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`load average (1, 5, 15 min) before: ${loadBefore}; after: ${load}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ date: new Date().toISOString(), cores: availableParallelism(), load_average_before: loadBefore, load_average_after: load, rows: ROWS, runs: RUNS, results }, null, 2) + '\n');
}

await run();
