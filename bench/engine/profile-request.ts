// Runs one benchmark request through the engine many times and prints the CPU time per
// request, for A/B runs (with parts stubbed) and for CPU profiles of the request path only
// (the rule-set load and the warm-up are left out of the profile):
//
//   npx tsx bench/engine/profile-request.ts "benign GET" 1 20000 [/tmp/get.cpuprofile]
//
// Arguments: request name (see requests.ts), paranoia level, iterations, optional profile path.
// Options: --daemon (the daemon's rule set: daemon/rule-sets, CRS with the WordPress exclusions and the
// cms group; and phases 1-2 only, as the edge runs them: no logging phase), --budget MS (the edge's time budget, default off), --vary same|fresh|unique|mixed (what
// the requests repeat, request-copies.ts: 'unique' makes new values for every request, a stream
// of copies made ahead of the timed loop; default same), --alloc N (instead of a CPU profile: V8's
// sampling heap profiler, garbage included, and the N call sites that allocate the most bytes per request).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadCrs } from '../../daemon/engine/waf.js';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { benchRequests } from './requests.js';
import { BENCH_BASE, CRS_RULES, CRS_SETUP } from './setup.js';
import { compileRuleSet, findCrs } from '../../daemon/rule-sets/rule-set-builder.js';
import { defaultRuleSettings } from '../../daemon/rule-sets/rule-settings.js';
import { requestCopies, type CopyMode } from './request-copies.js';

const argv = process.argv.slice(2);
const daemon = argv.includes('--daemon');
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const budgetMs = Number(option('--budget', '0'));
const vary = option('--vary', 'same') as CopyMode;
const allocTop = Number(option('--alloc', '0'));
const positional = argv.filter((a, i) => !a.startsWith('--') && !['--budget', '--vary', '--alloc'].includes(argv[i - 1]));
const [name = 'benign GET', plText = '1', iterationsText = '20000', profilePath] = positional;
const request = benchRequests[name];
if (request === undefined) {
  console.error(`unknown request "${name}"; one of: ${Object.keys(benchRequests).join(', ')}`);
  process.exit(2);
}
const pl = Number(plText) as 1 | 2 | 3 | 4;
const waf = daemon ? compileRuleSet(defaultRuleSettings(pl), findCrs('/usr/share/modsecurity-crs')) : loadCrs({ registries: defaultRegistries, rulesDir: CRS_RULES, setupFile: CRS_SETUP, before: [{ text: BENCH_BASE, name: '<bench base>' }], paranoiaLevel: pl });
const iterations = Number(iterationsText);
// 'unique' needs a copy per request: made ahead, so the loop times the engine only.
let copies = requestCopies(request, vary, vary === 'unique' || vary === 'mixed' ? Math.min(2000, iterations) : 256);
let turn = 0;
// The budget starts after the warm-up: a cold rule set spends its first requests compiling regexes.
let warm = false;
const once = () => {
  const tx = waf.newTransaction(copies[turn++ % copies.length]);
  if (warm && budgetMs > 0) tx.setTimeBudget(budgetMs);
  tx.processRequest();
  if (!daemon) tx.processLogging();
};
for (let i = 0; i < Math.min(2000, iterations); i++) once();
warm = true;
if (vary === 'unique' || vary === 'mixed') copies = requestCopies(request, vary, iterations);
turn = 0;
const session = profilePath === undefined && allocTop === 0 ? undefined : new Session();
if (allocTop > 0) {
  session!.connect();
  await session!.post('HeapProfiler.enable');
  // Every 512 bytes on average, and the objects a scavenge or a full collection took since: the garbage.
  await session!.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
} else if (session !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
const c0 = process.cpuUsage();
for (let i = 0; i < iterations; i++) once();
const c = process.cpuUsage(c0);
if (allocTop > 0) {
  const { profile } = await session!.post('HeapProfiler.stopSampling');
  printAllocationSites(profile.head, iterations, allocTop);
} else if (session !== undefined && profilePath !== undefined) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profilePath, JSON.stringify(profile));
}
console.log(`${name} PL${plText}${daemon ? ' (daemon rule set)' : ''}${vary === 'same' ? '' : ` (${vary} values)`}${budgetMs > 0 ? ` (budget ${budgetMs} ms)` : ''}: ${((c.user + c.system) / iterations).toFixed(1)} us CPU per request (mean of ${iterations})`);

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/** The call sites (function, line and column) with the most bytes sampled, per request. */
function printAllocationSites(head: AllocationNode, requests: number, top: number): void {
  const bySite = new Map<string, number>();
  let total = 0;
  // Line and column (tsx puts a module's code on few lines); a built-in (Map's set, Array's push:
  // no url) is named with its JS caller, "set < store ...".
  const walk = (node: AllocationNode, caller: string): void => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const here = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(daemon|node_modules)\//, '$1/')}:${lineNumber + 1}:${columnNumber + 1}`;
    const site = url === '' && caller !== '' ? `${functionName} < ${caller}` : here;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child, url === '' ? caller : here);
  };
  walk(head, '');
  console.log(`allocated: ${(total / requests / 1024).toFixed(1)} KB per request (sampled)`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(bytes / requests).toFixed(0).padStart(7)} B  ${site}`);
  }
}
