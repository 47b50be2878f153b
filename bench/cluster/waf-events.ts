// WAF events into PostgreSQL through the shipper (scale-out B3): rows/s of a backlog shipped by
// one node (events appended to its spool first, then the clock runs until the cursor reaches the
// last one), ship lag at a steady rate (each chunk from its local fsync until it is in
// PostgreSQL), and bytes per event on disk (heap + indexes of the week partitions). In process:
// one JSONL store and its ClusterEventStore, as a daemon's primary has them. Targets: >= 20k
// rows/s, lag p99 <= 1 s at 2k events/s. The figures depend on the box: say its load with them.
//
//   node --import tsx bench/cluster/waf-events.ts [--events 100000] [--rate 2000] [--seconds 10]
// PostgreSQL: $WAFCTL_TEST_POSTGRES, else a throwaway one (scripts/test-services/postgres.sh).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openEventNode } from '../../test/cluster/event-node.js';
import { freshDatabase, sql, testPostgres } from '../../test/cluster/postgres.js';
import { NOW, wafEvent } from '../../test/daemon/store/events/helpers.js';
import type { NewWafEvent } from '../../shared/schemas/events.js';

const { values: args } = parseArgs({ options: {
  events: { type: 'string', default: '100000' },
  rate: { type: 'string', default: '2000' },
  seconds: { type: 'string', default: '10' },
} });

function events(n: number, from: number): NewWafEvent[] {
  return Array.from({ length: n }, (_, i) => {
    const k = from + i;
    return wafEvent({
      site_id: 1 + (k % 10), timestamp_ms: NOW - 3_600_000 + (k % 3_600_000),
      client_ip: `10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`, rule_id: String(942100 + (k % 50)),
      uri: `/shop/item/${k % 5000}?q=${k % 97}`, request_id: `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`, action: 'block',
    });
  });
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

const server = await testPostgres();
if (!server.ok) throw new Error(server.skip);
try {
  const url = await freshDatabase(server.url);
  const node = await openEventNode(url);
  const total = Number(args.events);
  // Backlog: the spool holds everything first (as after an outage), then it ships.
  let appended = 0;
  let last = 0;
  while (appended < total) {
    const n = Math.min(1_000, total - appended);
    const ids = await node.local.appendWafEvents(events(n, appended));
    last = ids.at(-1)!;
    appended += n;
  }
  const t0 = performance.now();
  node.cluster.shipper.wake();
  await node.cluster.shipper.whenShipped(last);
  const seconds = (performance.now() - t0) / 1000;
  const [size] = await sql<{ heap: string; total: string; n: string }>(url, `
    SELECT sum(pg_relation_size(c.oid)) AS heap, sum(pg_total_relation_size(c.oid)) AS total, (SELECT count(*) FROM waf_events) AS n
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'waf_events'::regclass`);
  const rows = Number(size!.n);

  // Steady rate: chunks of rate/20 every 50 ms; lag = local fsync -> in PostgreSQL.
  const rate = Number(args.rate);
  const chunk = Math.max(1, Math.round(rate / 20));
  const lags: number[] = [];
  const waits: Promise<void>[] = [];
  const end = performance.now() + Number(args.seconds) * 1000;
  for (let k = 0; performance.now() < end; k++) {
    const ids = await node.cluster.appendWafEvents(events(chunk, total + k * chunk));
    const at = performance.now();
    waits.push(node.cluster.shipper.whenShipped(ids.at(-1)!).then(() => { lags.push(performance.now() - at); }));
    await sleep(50);
  }
  await Promise.all(waits);
  lags.sort((a, b) => a - b);
  await node.cluster.close();
  console.log(JSON.stringify({
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    backlog: { events: total, rows_in_postgres: rows, seconds: Math.round(seconds * 100) / 100, rows_per_second: Math.round(total / seconds) },
    bytes_per_event: { heap: Math.round(Number(size!.heap) / rows), heap_and_indexes: Math.round(Number(size!.total) / rows) },
    ship_lag_ms: { rate_per_second: rate, chunks: lags.length, p50: Math.round(pct(lags, 0.5)), p99: Math.round(pct(lags, 0.99)), max: Math.round(lags.at(-1)!) },
  }, null, 2));
} finally {
  await server.stop();
}
