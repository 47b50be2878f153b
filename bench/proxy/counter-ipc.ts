// Cost of exact rate-limit counters across node:cluster workers: a hit answered by the primary
// over IPC (IpcCounterStore) vs an in-process MemoryCounterStore hit (the anchor).
// usage: node --import tsx bench/proxy/counter-ipc.ts
import cluster from 'node:cluster';
import { performance } from 'node:perf_hooks';
import { IpcCounterStore, serveWorker } from '../../daemon/proxy/cluster-ipc.js';
import { DISCARD_EVENTS } from '../../daemon/proxy/events.js';
import { MemoryCounterStore } from '../../daemon/store/counter-store.js';

const N = 20_000;
const key = (i: number) => `1\u0000/wp-login.php\u0000198.51.100.${i % 250}`;

if (cluster.isPrimary) {
  const worker = cluster.fork();
  serveWorker(worker, new MemoryCounterStore(), DISCARD_EVENTS);
  worker.on('exit', () => process.exit(0));
} else {
  const mem = new MemoryCounterStore();
  const ipc = new IpcCounterStore();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const memRuns: number[] = [], seqRuns: number[] = [], parRuns: number[] = [];
  for (let round = 0; round < 5; round++) {
    let t = performance.now();
    for (let i = 0; i < N; i++) mem.hit(key(i), 60_000, Date.now());
    memRuns.push(((performance.now() - t) * 1000) / N);
    t = performance.now();
    for (let i = 0; i < N / 4; i++) await ipc.hit(key(i), 60_000, Date.now());
    seqRuns.push(((performance.now() - t) * 1000) / (N / 4));
    // 50 requests in flight at a time, as under wrk -c50.
    t = performance.now();
    for (let i = 0; i < N; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => ipc.hit(key(i + j), 60_000, Date.now())));
    parRuns.push(((performance.now() - t) * 1000) / N);
  }
  const m = median(memRuns), s = median(seqRuns), p = median(parRuns);
  console.log(`counter hit, median of 5 rounds:`);
  console.log(`  in-process MemoryCounterStore        ${m.toFixed(2)} µs/hit  (anchor)`);
  console.log(`  IPC to primary, one at a time         ${s.toFixed(1)} µs/hit  (round-trip latency; ${(s / m).toFixed(0)}x)`);
  console.log(`  IPC to primary, 50 in flight          ${p.toFixed(1)} µs/hit  (throughput cost; ${(p / m).toFixed(0)}x)`);
  process.exit(0);
}
