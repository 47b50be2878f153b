// What one watchdog costs (daemon/engine/budget/interruptible.ts): runInterruptible(job, ms) against
// calling the job directly, for a trivial job, so the figure is the watchdog alone (node starts and
// joins a thread per call). This decides when the time budget guards an exec or a whole phase.
//
//   npx tsx bench/engine-parts/interruptible-cost.ts [--calls 5000]
import { loadavg } from 'node:os';
import { Interrupted, runInterruptible } from '../../daemon/engine/budget/interruptible.js';

const i = process.argv.indexOf('--calls');
const calls = i > 0 ? Number(process.argv[i + 1]) : 5000;
let sink = 0;
const job = () => { sink++; };
// A trivial job stopped at its 40 ms limit: the watchdog measures wall time, so a main thread that
// waited that long for a core (or a slow thread start) counts; on a loaded box it happens.
let stopped = 0;
const guardedJob = () => {
  try {
    runInterruptible(job, 40);
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err;
    stopped++;
  }
};

function perCallUs(run: () => void): { median: number; p99: number } {
  const samples: number[] = [];
  for (let r = 0; r < 20; r++) {
    const t0 = performance.now();
    for (let k = 0; k < calls / 20; k++) run();
    samples.push(((performance.now() - t0) * 1000) / (calls / 20));
  }
  samples.sort((a, b) => a - b);
  return { median: samples[10], p99: samples[19] };
}

console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${calls} calls per variant, wall us per call (median / worst of 20 batches)`);
for (let round = 0; round < 2; round++) {
  const direct = perCallUs(job);
  const guarded = perCallUs(guardedJob);
  console.log(`direct ${direct.median.toFixed(2)} / ${direct.p99.toFixed(2)}   runInterruptible ${guarded.median.toFixed(1)} / ${guarded.p99.toFixed(1)}`);
}
console.log(`trivial jobs stopped at the 40 ms limit: ${stopped} of ${2 * calls}; load average after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
