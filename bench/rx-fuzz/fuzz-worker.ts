// The worker side of rx-fuzz.ts: evaluates one job (a rule's regex over every pathological input of
// one size, from a start index; or whole requests through the PL4 rule set) and posts a timing after
// each evaluation, so the main thread can stop a catastrophic evaluation (terminate interrupts a
// running regex) and go on with the next input in a fresh worker.
import { parentPort } from 'node:worker_threads';
import { compilePcre } from '../../daemon/engine/regex/index.js';
import { enableRegexBacktrackFallback } from '../../daemon/engine/regex-safety.js';
import type { Waf } from '../../daemon/engine/waf.js';
import { findCrs, RuleGroups } from '../../daemon/rule-sets/rule-groups.js';
import { EngineBudgetExceeded } from '../../daemon/engine/budget/time-budget.js';
import { pathologicalInputs } from './pathological-inputs.js';
import { requestsFor } from './placements.js';

export type Job =
  | { kind: 'rx'; pattern: string; size: number; from: number; only?: string[] }
  | { kind: 'requests'; values: string[]; from: number; timeBudgetMs: number };

export type Report = { start: number } | { index: number; cpuMs: number; wallMs: number; blocked?: boolean; stoppedByBudget?: boolean } | { done: true };

enableRegexBacktrackFallback(); // as Waf.load does, before any rule regex is compiled
let waf: Waf | null = null;

function timed(run: () => void): { cpuMs: number; wallMs: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  run();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000, wallMs };
}

parentPort!.on('message', (job: Job) => {
  if (job.kind === 'rx') {
    const regex = compilePcre(job.pattern).regex;
    let index = 0;
    for (const input of pathologicalInputs(job.pattern, job.size)) {
      if (index >= job.from && (job.only === undefined || job.only.includes(input.shape))) {
        parentPort!.postMessage({ start: index } satisfies Report);
        parentPort!.postMessage({ index, ...timed(() => regex.exec(input.value)) } satisfies Report);
      }
      index++;
    }
  } else {
    if (waf === null) {
      const crs = findCrs('/usr/share/modsecurity-crs');
      if (crs === null) throw new Error('CRS not found under /usr/share/modsecurity-crs (apt-get install modsecurity-crs)');
      waf = new RuleGroups(crs).forParanoia(4);
    }
    const requests = job.values.flatMap((value) => requestsFor(value).map(([, request]) => request));
    for (let index = job.from; index < requests.length; index++) {
      let blocked = false;
      let stoppedByBudget = false;
      parentPort!.postMessage({ start: index } satisfies Report);
      const t = timed(() => {
        const tx = waf!.newTransaction(requests[index]);
        // With a budget, as the edge runs it: the engine gives up and the edge refuses (fail-closed).
        if (job.timeBudgetMs > 0) tx.setTimeBudget(job.timeBudgetMs);
        try {
          blocked = tx.processRequest() !== null;
          tx.processLogging();
        } catch (err) {
          if (!(err instanceof EngineBudgetExceeded)) throw err;
          stoppedByBudget = true;
        }
      });
      parentPort!.postMessage({ index, blocked, stoppedByBudget, ...t } satisfies Report);
    }
  }
  parentPort!.postMessage({ done: true } satisfies Report);
});
