// What the per-transaction time budget (daemon/engine/budget/) costs a normal request: the
// benchmark's requests with the budget on (the daemon's default, 40 ms) and off, interleaved in one
// process (blocks of 200 requests alternating A/B, so load changes on the shared box hit both
// alike). Prints CPU us per request (process.cpuUsage) for each side and the paired ratio on/off,
// plus how many clock reads and watchdogs one request costs.
//
//   npx tsx bench/engine/time-budget-ab.ts [--pl 1] [--rounds 30] [--budget-ms 40]
// "over budget" counts benign requests that ran out of the budget (CPU time of the thread, so it
// should stay 0 however loaded the box is: run it beside `scripts/busy-loops.sh` to see).
import { loadavg } from 'node:os';
import { loadCrs } from '../../daemon/engine/waf.js';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { EngineBudgetExceeded, guardLength, TimeBudget } from '../../daemon/engine/budget/time-budget.js';
import { warmUp } from '../../daemon/engine/budget/warm-up.js';
import { benchRequests } from './requests.js';
import { BENCH_BASE, CRS_RULES, CRS_SETUP } from './setup.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const pl = arg('--pl', 1);
const rounds = arg('--rounds', 30);
const budgetMs = arg('--budget-ms', 40);
const BLOCK = 200;

const waf = loadCrs({ registries: defaultRegistries, rulesDir: CRS_RULES, setupFile: CRS_SETUP, before: [{ text: BENCH_BASE, name: '<bench base>' }], paranoiaLevel: pl });
warmUp(waf); // as the daemon does
let overBudget = 0;

function once(request: EngineRequest, budget: number): void {
  const tx = waf.newTransaction(request);
  if (budget > 0) tx.setTimeBudget(budget);
  try {
    tx.processRequest();
    tx.processLogging();
  } catch (err) {
    // A benign request past the budget: its own work took that long.
    if (!(err instanceof EngineBudgetExceeded)) throw err;
    overBudget++;
  }
}

function block(request: EngineRequest, budget: number): number {
  const c0 = process.cpuUsage();
  for (let i = 0; i < BLOCK; i++) once(request, budget);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / BLOCK;
}

/** Clock reads and watchdogs of one request, counted by wrapping the budget's private methods. */
function counts(request: EngineRequest): { checks: number; watchdogs: number; phaseWatchdogs: number } {
  const proto = TimeBudget.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const check = proto.check;
  const guarded = proto.guardedExec;
  const runPhase = proto.runPhase;
  let checks = 0;
  let watchdogs = 0;
  let phaseWatchdogs = 0;
  proto.runPhase = function (this: unknown, ...a: unknown[]) { if ((a[1] as number) >= guardLength(budgetMs)) phaseWatchdogs++; return runPhase.apply(this, a); };
  proto.check = function (this: unknown, ...a: unknown[]) { checks++; return check.apply(this, a); };
  proto.guardedExec = function (this: unknown, ...a: unknown[]) { watchdogs++; return guarded.apply(this, a); };
  once(request, budgetMs);
  proto.check = check;
  proto.guardedExec = guarded;
  proto.runPhase = runPhase;
  return { checks, watchdogs, phaseWatchdogs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`time budget A/B, PL${pl}, ${rounds} rounds of ${BLOCK} requests per side, budget ${budgetMs} ms, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('request              off us   on us   on/off (median of paired blocks)   clock reads  exec/phase watchdogs  over budget');
for (const [name, request] of Object.entries(benchRequests)) {
  for (let i = 0; i < 500; i++) { once(request, 0); once(request, budgetMs); }
  overBudget = 0;
  const off: number[] = [];
  const on: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Alternate which side goes first, so a drift in load does not favour one.
    const a = r % 2 === 0 ? block(request, 0) : NaN;
    const b = block(request, budgetMs);
    const c = r % 2 === 1 ? block(request, 0) : a;
    off.push(c);
    on.push(b);
    ratios.push(b / c);
  }
  const over = overBudget;
  const { checks, watchdogs, phaseWatchdogs } = counts(request);
  console.log(`${name.padEnd(20)} ${median(off).toFixed(0).padStart(6)} ${median(on).toFixed(0).padStart(7)}   ${median(ratios).toFixed(3).padStart(6)}                              ${String(checks).padStart(5)}        ${watchdogs}/${phaseWatchdogs}                 ${over} of ${rounds * BLOCK}`);
}
console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
