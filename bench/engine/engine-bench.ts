// Engine alone (no sockets): median and p99 microseconds per request (phases 1-2 plus
// logging, engine On) at paranoia 1 and 4, CRS 3.3.4 load time and heap. Prints figures and
// ratios against the engine's targets and its anchors (ModSecurity v3 on this machine:
// ~2,900 us for the GET, ~5,300 us for the POST).
//
//   npx tsx bench/engine/engine-bench.ts [--iterations 2000]
//   node --expose-gc --import tsx bench/engine/engine-bench.ts   (adds heap figures)
// Times are CPU microseconds per request (process.cpuUsage), with the wall-clock median beside.
import { loadCrs, type Waf } from '../../daemon/engine/waf.js';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { benchRequests } from './requests.js';
import { BENCH_BASE as BASE, CRS_RULES, CRS_SETUP } from './setup.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';

const argv = process.argv.slice(2);
const iterations = Number(argv[argv.indexOf('--iterations') + 1]) || 2000;
const gc = (globalThis as { gc?: () => void }).gc;

function heapMb(): number {
  gc?.();
  return process.memoryUsage().heapUsed / 1048576;
}

function load(pl: number): { waf: Waf; ms: number; cpuMs: number; heap: number } {
  const before = heapMb();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const waf = loadCrs({ registries: defaultRegistries, rulesDir: CRS_RULES, setupFile: CRS_SETUP, before: [{ text: BASE, name: '<bench base>' }], paranoiaLevel: pl });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { waf, ms, cpuMs: (cpu.user + cpu.system) / 1000, heap: heapMb() - before };
}

function run(waf: Waf, request: EngineRequest): { median: number; p99: number; wallMedian: number; blocked: boolean; matches: number } {
  let blocked = false;
  let matches = 0;
  const once = () => {
    const tx = waf.newTransaction(request);
    const interruption = tx.processRequest();
    tx.processLogging();
    blocked = interruption !== null;
    matches = tx.matches.length;
  };
  for (let i = 0; i < Math.min(500, iterations); i++) once();
  // CPU time (user + system) per request: the machine is shared, so wall time measures the
  // other tenants as much as the engine; ModSecurity's anchor figures are CPU time too.
  const samples = new Float64Array(iterations);
  const wall = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    once();
    wall[i] = Number(process.hrtime.bigint() - t0) / 1000;
    const c = process.cpuUsage(c0);
    samples[i] = c.user + c.system;
  }
  samples.sort();
  wall.sort();
  const at = (a: Float64Array, q: number) => a[Math.min(a.length - 1, Math.floor(a.length * q))];
  return { median: at(samples, 0.5), p99: at(samples, 0.99), wallMedian: at(wall, 0.5), blocked, matches };
}

const TARGET_PL1: Record<string, number> = { 'benign GET': 300, '1 KB form POST': 600, '8 KB JSON POST': 1500 };
const MODSEC_V3: Record<string, number> = { 'benign GET': 2900, '1 KB form POST': 5300 };

const results: Record<number, Record<string, { median: number; p99: number }>> = {};
for (const pl of [1, 4]) {
  const { waf, ms, cpuMs, heap } = load(pl);
  const rules = waf.ruleSet.phases.reduce((n, p) => n + p.length, 0);
  console.log(`\nparanoia ${pl}: CRS 3.3.4 loaded in ${cpuMs.toFixed(0)} ms CPU, ${ms.toFixed(0)} ms wall (target < 1000 ms, ratio ${(cpuMs / 1000).toFixed(2)}), ${rules} rules${gc ? `, heap +${heap.toFixed(1)} MB` : ''}`);
  console.log(`${'request'.padEnd(16)} ${'cpu med us'.padStart(10)} ${'cpu p99 us'.padStart(10)} ${'wall med'.padStart(9)}  matches  verdict   vs target        vs ModSecurity v3`);
  results[pl] = {};
  for (const [name, request] of Object.entries(benchRequests)) {
    const r = run(waf, request);
    results[pl][name] = r;
    const target = pl === 1 ? TARGET_PL1[name] : results[1]?.[name] ? 2 * results[1][name].median : undefined;
    const vsTarget = target ? `${(r.median / target).toFixed(2)} of ${target.toFixed(0)} us` : '';
    const v3 = MODSEC_V3[name] ? `${(MODSEC_V3[name] / r.median).toFixed(1)}x faster` : '';
    console.log(`${name.padEnd(16)} ${r.median.toFixed(0).padStart(10)} ${r.p99.toFixed(0).padStart(10)} ${r.wallMedian.toFixed(0).padStart(9)}  ${String(r.matches).padStart(7)}  ${(r.blocked ? 'blocked' : 'passed').padEnd(8)}  ${vsTarget.padEnd(15)}  ${v3}`);
  }
}
console.log(`\nPL4 / PL1 median ratio (target <= 2): ${Object.keys(benchRequests).map((n) => `${n} ${(results[4][n].median / results[1][n].median).toFixed(2)}`).join(', ')}`);
