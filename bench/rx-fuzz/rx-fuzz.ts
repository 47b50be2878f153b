// Engine safety: every @rx of CRS 3.3.4 (all paranoia levels, i.e. what PL4 runs) through
// the engine's own compile path (daemon/engine/regex, V8's backtrack fallback switched on the way
// Waf.load does it), against pathological inputs (pathological-inputs.ts) at 1 KiB; each rule's
// three worst shapes again at 8 KiB and at the request-body inspection limit (~128 KiB). Then the
// worst inputs go as whole requests (query, form body, JSON body, User-Agent, Cookie) through the
// daemon's PL4 rule set (daemon/rule-sets/rule-groups.ts): no request may hold the event loop > 50 ms.
// Evaluations run in a worker with a watchdog: one that runs past the budget is stopped (terminate
// interrupts a running regex) and reported as "> budget", and the fuzz goes on.
//
// The whole requests run twice: without the engine's time budget (daemon/engine/budget/) and with
// it (--time-budget-ms, the daemon's default 40), where the engine gives up and the edge refuses.
//
//   npx tsx bench/rx-fuzz/rx-fuzz.ts [--budget-ms 3000] [--top 20] [--requests 10] [--time-budget-ms 40]
//   npx tsx bench/rx-fuzz/rx-fuzz.ts --requests-only   (whole requests from the worst inputs in results/latest.json)
// Prints the worst rules and requests (CPU ms; wall beside) and writes bench/rx-fuzz/results/latest.json
// (--requests-only: results/requests-latest.json).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { crsRxRules, type RxRule } from './crs-rx-rules.js';
import type { Job, Report } from './fuzz-worker.js';
import { BODY_LIMIT, pathologicalInputs } from './pathological-inputs.js';
import { PLACEMENTS, requestsFor } from './placements.js';

const LIMIT_MS = 50;
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const BUDGET_MS = arg('--budget-ms', 3_000);
const TOP = arg('--top', 20);
const REQUEST_RULES = arg('--requests', 10);
const TIME_BUDGET_MS = arg('--time-budget-ms', 40);
const REQUESTS_ONLY = process.argv.includes('--requests-only');
const RESULTS = join(fileURLToPath(new URL('.', import.meta.url)), 'results');
const SIZES = [1_024, 8_192, BODY_LIMIT - 64];
const WORKER_URL = new URL('./fuzz-worker.ts', import.meta.url).href;

interface Result {
  cpuMs: number;
  wallMs: number;
  timedOut: boolean;
  blocked?: boolean;
  stoppedByBudget?: boolean;
}

// One worker at a time, reused across jobs; replaced only when the watchdog had to stop it.
let worker: Worker | null = null;
function spawnWorker(): Worker {
  // tsx's loader is registered per thread: the worker imports it before the TypeScript module.
  return new Worker(`import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(WORKER_URL)}); });`, { eval: true });
}

/** Runs a job; returns the result per index. An evaluation past the budget kills the worker. */
async function run(job: Job): Promise<Map<number, Result>> {
  const results = new Map<number, Result>();
  let from = job.from;
  for (;;) {
    worker ??= spawnWorker();
    const w = worker;
    const outcome = await new Promise<{ done: true } | { timedOutAt: number }>((resolve, reject) => {
      let current = -1;
      let timer: NodeJS.Timeout | undefined;
      const finish = (value: { done: true } | { timedOutAt: number }) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        resolve(value);
      };
      const arm = () => {
        clearTimeout(timer);
        // The first evaluation may wait for the worker to load (and for the PL4 rule set to compile).
        timer = setTimeout(() => finish({ timedOutAt: current }), current < 0 ? 180_000 : BUDGET_MS);
      };
      const onMessage = (report: Report) => {
        if ('done' in report) finish({ done: true });
        else if ('start' in report) {
          current = report.start;
          arm();
        } else results.set(report.index, { cpuMs: report.cpuMs, wallMs: report.wallMs, timedOut: false, blocked: report.blocked, stoppedByBudget: report.stoppedByBudget });
      };
      const onError = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      w.on('message', onMessage);
      w.on('error', onError);
      arm();
      w.postMessage({ ...job, from });
    });
    if ('done' in outcome) return results;
    await w.terminate();
    worker = null;
    if (outcome.timedOutAt < 0) throw new Error('the fuzz worker did not start');
    results.set(outcome.timedOutAt, { cpuMs: BUDGET_MS, wallMs: BUDGET_MS, timedOut: true });
    from = outcome.timedOutAt + 1;
  }
}

interface Worst {
  rule: RxRule;
  shape: string;
  size: number;
  result: Result;
}

const loadStart = loadavg()[0];
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
const rules = crsRxRules();
let worst: Worst[] = [];
let evaluations = 0;
let timeouts = 0;

/** The worst input per rule of a previous full run (results/latest.json), for --requests-only. */
function worstFromResults(): Worst[] {
  const saved = JSON.parse(readFileSync(join(RESULTS, 'latest.json'), 'utf8')) as { worstRules: Array<{ rule: string; shape: string; bytes: number; cpuMs: number; wallMs: number; stoppedAtBudget: boolean }> };
  return saved.worstRules.flatMap((w) => {
    const rule = rules.find((r) => r.ruleId === w.rule && [...pathologicalInputs(r.pattern, w.bytes)].some((p) => p.shape === w.shape));
    return rule ? [{ rule, shape: w.shape, size: w.bytes, result: { cpuMs: w.cpuMs, wallMs: w.wallMs, timedOut: w.stoppedAtBudget } }] : [];
  });
}

if (REQUESTS_ONLY) worst = worstFromResults();
else {
  for (const [n, rule] of rules.entries()) {
    const shapesAt = (size: number) => [...pathologicalInputs(rule.pattern, size)].map((p) => p.shape);
    const small = await run({ kind: 'rx', pattern: rule.pattern, size: SIZES[0], from: 0 });
    const smallShapes = shapesAt(SIZES[0]);
    const ranked = [...small.entries()].sort((a, b) => b[1].cpuMs - a[1].cpuMs);
    evaluations += small.size;
    let best: Worst = { rule, shape: smallShapes[ranked[0][0]], size: SIZES[0], result: ranked[0][1] };
    // Bigger sizes for the three worst shapes, unless one already ran past the budget (bigger only grows).
    if (!best.result.timedOut) {
      const only = ranked.slice(0, 3).map(([i]) => smallShapes[i]);
      for (const size of SIZES.slice(1)) {
        const shapes = shapesAt(size);
        const bigger = await run({ kind: 'rx', pattern: rule.pattern, size, from: 0, only });
        evaluations += bigger.size;
        for (const [i, result] of bigger) if (result.cpuMs > best.result.cpuMs) best = { rule, shape: shapes[i], size, result };
        if (best.result.timedOut) break;
      }
    }
    if (best.result.timedOut) timeouts++;
    worst.push(best);
    if ((n + 1) % 25 === 0) console.error(`  ${n + 1}/${rules.length} rules, ${evaluations} evaluations, ${timeouts} over the ${BUDGET_MS} ms budget`);
  }
  worst.sort((a, b) => b.result.cpuMs - a.result.cpuMs);
  const cpu = process.cpuUsage(cpu0);
  console.log(`CRS 3.3.4 @rx: ${rules.length} regexes, ${evaluations.toLocaleString('en')} evaluations in ${((performance.now() - wall0) / 1000).toFixed(0)} s ` +
    `(${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU); budget per evaluation ${BUDGET_MS} ms; load average ${loadStart.toFixed(1)} on 2 cores at start`);
  console.log(`\nworst ${TOP} rules: one evaluation of the rule's regex, CPU ms (wall beside); ">" = stopped at the budget`);
  console.log(`${'rule'.padEnd(8)} PL ${'cpu ms'.padStart(8)} ${'wall ms'.padStart(8)} ${'bytes'.padStart(7)}  input`);
  const fmt = (r: Result, v: number) => (r.timedOut ? `>${BUDGET_MS}` : v.toFixed(1)).padStart(8);
  for (const w of worst.slice(0, TOP)) {
    console.log(`${w.rule.ruleId.padEnd(8)} ${String(w.rule.paranoia).padStart(2)} ${fmt(w.result, w.result.cpuMs)} ${fmt(w.result, w.result.wallMs)} ${String(w.size).padStart(7)}  ${w.shape}  (${w.rule.file}:${w.rule.line})`);
  }
  const over = worst.filter((w) => w.result.cpuMs > LIMIT_MS);
  console.log(`rules with an evaluation over ${LIMIT_MS} ms CPU: ${over.length} (${over.map((w) => `${w.rule.ruleId}/PL${w.rule.paranoia}`).join(', ')})`);
}
const over = worst.filter((w) => w.result.cpuMs > LIMIT_MS);

// Whole requests: the worst input of the top rules, rebuilt at the size it was worst at, in each
// placement; without the engine's time budget (before) and with it (after).
const requestInputs = worst.slice(0, REQUEST_RULES).map((w) => {
  const value = [...pathologicalInputs(w.rule.pattern, w.size)].find((p) => p.shape === w.shape)!.value;
  return { w, value };
});
type Row = { rule: string; shape: string; placement: string; bytes: number; result: Result };
async function wholeRequests(timeBudgetMs: number): Promise<Row[]> {
  const results = await run({ kind: 'requests', values: requestInputs.map((r) => r.value), from: 0, timeBudgetMs });
  return [...results.entries()].map(([i, result]) => {
    const { w, value } = requestInputs[Math.floor(i / PLACEMENTS.length)];
    const [placement, request] = requestsFor(value)[i % PLACEMENTS.length];
    return { rule: w.rule.ruleId, shape: w.shape, placement, bytes: request.body?.length ?? Math.max(request.uri.length, ...request.headers.map(([, v]) => v.length)), result };
  }).sort((a, b) => b.result.wallMs - a.result.wallMs);
}
const fmt = (r: Result, v: number) => (r.timedOut ? `>${BUDGET_MS}` : v.toFixed(1)).padStart(8);
const verdict = (r: Result) => (r.timedOut ? '?       ' : r.stoppedByBudget ? 'budget  ' : r.blocked ? 'blocked ' : 'passed  ');
function printRequests(rows: Row[], label: string): void {
  console.log(`\nwhole requests through the PL4 rule set, ${label}: ${rows.length} (worst inputs of the top ${REQUEST_RULES} rules x ${PLACEMENTS.length} placements), worst 15 by wall ms (the event-loop hold):`);
  for (const r of rows.slice(0, 15)) {
    console.log(`  ${fmt(r.result, r.result.wallMs)} wall ${fmt(r.result, r.result.cpuMs)} cpu  ${r.placement.padEnd(10)} ${String(r.bytes).padStart(7)} B  ${verdict(r.result)} worst input of ${r.rule}: ${r.shape}`);
  }
  const overWall = rows.filter((r) => r.result.wallMs > LIMIT_MS).length;
  const stopped = rows.filter((r) => r.result.stoppedByBudget).length;
  console.log(`requests holding the event loop over ${LIMIT_MS} ms (wall): ${overWall} of ${rows.length}; worst ${fmt(rows[0].result, rows[0].result.wallMs).trim()} ms wall (${rows[0].placement}, rule ${rows[0].rule}); stopped by the time budget: ${stopped}`);
}
const before = await wholeRequests(0);
printRequests(before, 'no time budget');
const after = TIME_BUDGET_MS > 0 ? await wholeRequests(TIME_BUDGET_MS) : [];
if (after.length > 0) printRequests(after, `time budget ${TIME_BUDGET_MS} ms (as the daemon runs it)`);
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

mkdirSync(RESULTS, { recursive: true });
await (worker as Worker | null)?.terminate();
const requestSummary = (rows: Row[]) => rows.slice(0, 15).map((r) => ({ rule: r.rule, placement: r.placement, shape: r.shape, bytes: r.bytes, wallMs: +r.result.wallMs.toFixed(1), cpuMs: +r.result.cpuMs.toFixed(1), stoppedAtBudget: r.result.timedOut, stoppedByTimeBudget: r.result.stoppedByBudget ?? false, blocked: r.result.blocked }));
const requests = { timeBudgetMs: TIME_BUDGET_MS, worstRequestsWithoutBudget: requestSummary(before), worstRequestsWithBudget: requestSummary(after) };
if (REQUESTS_ONLY) {
  writeFileSync(join(RESULTS, 'requests-latest.json'), JSON.stringify({ at: new Date().toISOString(), loadAverageAtStart: loadStart, budgetMs: BUDGET_MS, ...requests }, null, 2) + '\n');
} else {
  writeFileSync(join(RESULTS, 'latest.json'), JSON.stringify({
    at: new Date().toISOString(), loadAverageAtStart: loadStart, budgetMs: BUDGET_MS, evaluations, regexes: rules.length,
    worstRules: worst.slice(0, TOP).map((w) => ({ rule: w.rule.ruleId, paranoia: w.rule.paranoia, at: `${w.rule.file}:${w.rule.line}`, shape: w.shape, bytes: w.size, cpuMs: +w.result.cpuMs.toFixed(2), wallMs: +w.result.wallMs.toFixed(2), stoppedAtBudget: w.result.timedOut })),
    rulesOver50ms: over.map((w) => ({ rule: w.rule.ruleId, paranoia: w.rule.paranoia, shape: w.shape, bytes: w.size, cpuMs: +w.result.cpuMs.toFixed(1), stoppedAtBudget: w.result.timedOut })),
    ...requests,
  }, null, 2) + '\n');
}
