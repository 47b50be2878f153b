// /analytics from the cluster's access rollups (scale-out B5: a 90-day answer <= 50 ms; the JSONL
// store answers from memory in 2.3 ms of CPU). Fills PostgreSQL as 90 days of a busy site would
// leave it once the compactor has run: one hourly row per hour (dense sketches: 3,000 visitors an
// hour), one daily sketch per day, and the current hour still as deltas from three nodes; then
// times analyticsPg for each period, answers read back to back. In process, as a node's read pool
// would run it.
//
//   node --import tsx bench/cluster/analytics.ts [--runs 50] [--visitors 3000] [--deltas 30] [--json FILE]
// PostgreSQL: $WAFCTL_TEST_POSTGRES, else a throwaway one (scripts/test-services/postgres.sh).
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sketchBytes } from '../../daemon/cluster/events/access-deltas.js';
import { ensureEventsSchema } from '../../daemon/cluster/events/events-schema.js';
import { analyticsPg } from '../../daemon/cluster/events/pg-analytics.js';
import { HyperLogLog } from '../../daemon/store/events/hyperloglog.js';
import type { AnalyticsPeriod } from '../../shared/schemas/events.js';
import { freshDatabase, testPostgres } from '../../test/cluster/postgres.js';

const { values: args } = parseArgs({ options: {
  runs: { type: 'string', default: '50' },
  visitors: { type: 'string', default: '3000' },
  deltas: { type: 'string', default: '30' },
  json: { type: 'string' },
} });
const RUNS = Number(args.runs);
const VISITORS = Number(args.visitors);
const DELTAS = Number(args.deltas);
const SITE = 1;
const NOW = Date.now();

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
};
const round = (ms: number) => Math.round(ms * 100) / 100;

/** A sketch of `n` visitors drawn from a pool the size of a day's visitors (hours overlap). */
function sketch(n: number, seed: number): HyperLogLog {
  const h = new HyperLogLog();
  for (let i = 0; i < n; i++) {
    const v = (seed * 7_919 + i * 104_729) % (VISITORS * 8);
    h.add(`10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}`);
  }
  return h;
}

async function fill(pool: pg.Pool): Promise<void> {
  const end = Math.ceil(NOW / 3_600_000);
  const start = end - 91 * 24;
  const hours = Array.from({ length: end - start }, (_, i) => start + i);
  for (let i = 0; i < hours.length; i += 500) {
    const chunk = hours.slice(i, i + 500);
    await pool.query(
      `INSERT INTO access_hourly (site_id, hour, requests, blocked, visitors)
       SELECT $1, * FROM unnest($2::integer[], $3::bigint[], $4::bigint[], $5::bytea[])`,
      [SITE, chunk, chunk.map(() => VISITORS * 12), chunk.map(() => VISITORS), chunk.map((h) => sketchBytes(sketch(VISITORS, h)))],
    );
  }
  const days = [...new Set(hours.map((h) => Math.floor(h / 24)))];
  await pool.query(
    'INSERT INTO access_daily (site_id, day, visitors) SELECT $1, * FROM unnest($2::integer[], $3::bytea[])',
    [SITE, days, days.map((d) => sketchBytes(sketch(VISITORS * 6, d)))],
  );
  // The current hour, not folded yet: deltas from three nodes, one a second each.
  const deltas = Array.from({ length: DELTAS }, (_, i) => i);
  await pool.query(
    `INSERT INTO access_deltas (site_id, hour, node_id, requests, blocked, visitors)
     SELECT $1, $2, * FROM unnest($3::integer[], $4::bigint[], $5::bigint[], $6::bytea[])`,
    [SITE, end - 1, deltas.map((i) => 1 + (i % 3)), deltas.map(() => 200), deltas.map(() => 20), deltas.map((i) => sketchBytes(sketch(150, 1_000_000 + i)))],
  );
  await pool.query('ANALYZE access_hourly; ANALYZE access_daily; ANALYZE access_deltas');
}

async function run(): Promise<void> {
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const server = await testPostgres();
  if (!server.ok) throw new Error(server.skip);
  const pool = new pg.Pool({ connectionString: await freshDatabase(server.url), max: 1 });
  const results: Record<string, { p50: number; p99: number; max: number }> = {};
  try {
    await ensureEventsSchema(pool);
    await fill(pool);
    for (const period of ['24h', '7d', '30d', '90d'] as AnalyticsPeriod[]) {
      await analyticsPg(pool, SITE, period, NOW); // the first read warms the cache
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await analyticsPg(pool, SITE, period, NOW);
        times.push(performance.now() - t0);
      }
      results[period] = { p50: round(percentile(times, 0.5)), p99: round(percentile(times, 0.99)), max: round(Math.max(...times)) };
      console.log(`/analytics ${period.padEnd(3)} p50 ${results[period].p50} ms, p99 ${results[period].p99} ms, max ${results[period].max} ms (${RUNS} runs)`);
    }
  } finally {
    await pool.end();
    await server.stop();
  }
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`load average (1, 5, 15 min) before: ${loadBefore}; after: ${load}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ date: new Date().toISOString(), cores: availableParallelism(), load_average_before: loadBefore, load_average_after: load, visitors_per_hour: VISITORS, deltas: DELTAS, runs: RUNS, results }, null, 2) + '\n');
}

await run();
