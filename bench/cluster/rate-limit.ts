// What shared counters cost a rate-limited request (scale-out acceptance: p50 <= 0.2 ms, p99 <= 1 ms
// added; B1 of shared/design/scale-out.md) and what a stopped Redis costs (acceptance 2: no request
// waits more than 60 ms, at most 5 per node pay the timeout).
//
//   latency  one counted hit through the node primary's cluster counters (daemon/cluster/
//            cluster-counters.ts: breaker, coalescing, Lua on Redis) against the anchor, an
//            in-process MemoryCounterStore hit (what a single node pays), one at a time and 50 in
//            flight (each hit timed from its call to its answer). A worker's hit adds the IPC hop
//            on top in both cases (bench/proxy/counter-ipc.ts).
//   sigstop  three nodes' counters (three connections and breakers, in this one process) driven
//            round-robin with 50 hits in flight; Redis is SIGSTOPped for 2 s then continued: the
//            longest wait, hits per node that waited >= the 50 ms timeout, and when every node
//            counted in Redis again. Needs its own Redis (redis-server), which it stops and starts.
//
//   node --import tsx bench/cluster/rate-limit.ts [--hits 20000] [--json FILE]
// Redis: $WAFCTL_TEST_REDIS for latency, else a throwaway one (scripts/test-services/redis.sh);
// sigstop always uses a throwaway one.
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { openClusterCounters, type ClusterCounters } from '../../daemon/cluster/cluster-counters.js';
import { MemoryCounterStore, type CounterStore } from '../../daemon/store/counter-store.js';
import { privateRedis, testRedis } from '../../test/cluster/redis.js';

const { values: args } = parseArgs({ options: { hits: { type: 'string', default: '20000' }, json: { type: 'string' } } });
const HITS = Number(args.hits);
const LIMIT = 1_000_000; // never over: every hit goes to Redis (the over-limit cache would hide the cost)
const quiet = pino({ level: 'silent' });
const key = (i: number) => `1\u0000/wp-login.php\u0000198.51.100.${i % 250}`;

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};
const us = (ms: number) => Math.round(ms * 1000 * 10) / 10;

async function timed(store: CounterStore, n: number, inFlight: number): Promise<number[]> {
  const took: number[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < n) {
      const i = next++;
      const t = performance.now();
      await store.hit(key(i), 60_000, Date.now(), LIMIT);
      took.push(performance.now() - t);
    }
  }));
  return took;
}

async function latency(url: string) {
  const cluster = await openClusterCounters({ url, failureMode: 'open', logger: quiet });
  const memory = new MemoryCounterStore();
  const rows: Record<string, { p50_us: number; p99_us: number }> = {};
  try {
    for (const [name, store] of [['memory', memory], ['redis', cluster.store]] as const) {
      await timed(store, 2000, 1); // warm up
      for (const inFlight of [1, 50]) {
        const took = await timed(store, HITS, inFlight);
        rows[`${name}, ${inFlight} in flight`] = { p50_us: us(pct(took, 0.5)), p99_us: us(pct(took, 0.99)) };
      }
    }
    if (cluster.status().state !== 'exact') throw new Error('Redis degraded during the latency run: figures are not Redis\'s');
  } finally {
    await cluster.close();
  }
  const added = (inFlight: number) => ({
    p50_us: Math.round((rows[`redis, ${inFlight} in flight`]!.p50_us - rows[`memory, ${inFlight} in flight`]!.p50_us) * 10) / 10,
    p99_us: Math.round((rows[`redis, ${inFlight} in flight`]!.p99_us - rows[`memory, ${inFlight} in flight`]!.p99_us) * 10) / 10,
  });
  return { rows, added: { one_in_flight: added(1), fifty_in_flight: added(50) } };
}

async function sigstop() {
  const own = await privateRedis();
  if (!own.ok) return { skipped: own.skip };
  const nodes: ClusterCounters[] = [];
  try {
    for (let i = 0; i < 3; i++) nodes.push(await openClusterCounters({ url: own.url, failureMode: 'open', logger: quiet }));
    const waits = nodes.map(() => [] as number[]);
    let running = true;
    let stoppedAt = 0;
    let turn = 0;
    const driver = Promise.all(Array.from({ length: 50 }, async (_, lane) => {
      while (running) {
        const node = turn++ % nodes.length;
        const t = performance.now();
        await nodes[node]!.store.hit(`client-${lane}`, 60_000, Date.now(), LIMIT);
        if (stoppedAt > 0 && t >= stoppedAt - 100) waits[node]!.push(performance.now() - t);
        // A degraded node answers at once (no promise): without a turn here the lanes would spin on
        // microtasks and starve the timers. Requests reach a real node through I/O, one turn each.
        await new Promise(setImmediate);
      }
    }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    stoppedAt = performance.now();
    process.kill(own.pid, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    process.kill(own.pid, 'SIGCONT');
    const continuedAt = performance.now();
    while (nodes.some((n) => n.status().state !== 'exact') && performance.now() - continuedAt < 10_000) await new Promise((resolve) => setTimeout(resolve, 5));
    const backAfterMs = Math.round(performance.now() - continuedAt);
    running = false;
    await driver;
    return {
      stopped_ms: 2000,
      per_node: waits.map((w) => ({ hits: w.length, max_wait_ms: Math.round(w.reduce((a, b) => Math.max(a, b), 0) * 10) / 10, paid_timeout: w.filter((x) => x >= 50).length })),
      all_exact_again_after_sigcont_ms: backAfterMs,
    };
  } finally {
    for (const n of nodes) await n.close();
    await own.stop();
  }
}

const redis = await testRedis();
if (!redis.ok) throw new Error(redis.skip);
const before = loadavg()[0]!;
let result;
try {
  result = {
    date: new Date().toISOString(),
    cores: availableParallelism(),
    load_before: Math.round(before * 10) / 10,
    hits: HITS,
    latency: await latency(redis.url),
    sigstop: await sigstop(),
    load_after: Math.round(loadavg()[0]! * 10) / 10,
  };
} finally {
  await redis.stop();
}
console.log(JSON.stringify(result, null, 2));
if (args.json) writeFileSync(args.json, JSON.stringify(result, null, 2) + '\n');
