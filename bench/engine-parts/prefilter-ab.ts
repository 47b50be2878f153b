// A/B of the @rx literal prefilter (daemon/engine/prefilter/) through the whole engine, in one
// process: CRS 3.3.4 loaded twice per paranoia level (regexes gated / not gated), the bench
// requests of bench/engine alternated between the two in rounds, so machine load hits both alike.
// Prints median CPU microseconds per request (process.cpuUsage), the with/without ratio, and
// how many regex executions the gate saved.
//
//   npx tsx bench/engine-parts/prefilter-ab.ts [--rounds 20] [--per-round 50] [--aa]
// --aa loads both sides without gates: the spread it shows is the method's noise.
import { loadCrs, type Waf } from '../../daemon/engine/waf.js';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { prefilterSettings, sharedLiteralIndex } from '../../daemon/engine/prefilter/index.js';
import { benchRequests } from '../engine/requests.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import { loadavg } from 'node:os';

const BASE = `SecRuleEngine On
SecRequestBodyAccess On
SecRule REQUEST_HEADERS:Content-Type "^(?:application(?:/soap\\+|/)|text/)xml" "id:200000,phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=XML"
SecRule REQUEST_HEADERS:Content-Type "^application/json" "id:200001,phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=JSON"
SecRequestBodyLimit 13107200
SecRequestBodyNoFilesLimit 131072`;

const argv = process.argv.slice(2);
const option = (name: string, dflt: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt);
const rounds = option('--rounds', 20);
const perRound = option('--per-round', 50);
const aToA = argv.includes('--aa');

function load(pl: number, gated: boolean): Waf {
  const saved = prefilterSettings.enabled;
  prefilterSettings.enabled = gated && !aToA;
  const waf = loadCrs({ registries: defaultRegistries, rulesDir: '/usr/share/modsecurity-crs/rules', setupFile: '/etc/modsecurity/crs/crs-setup.conf', before: [{ text: BASE, name: '<bench base>' }], paranoiaLevel: pl });
  prefilterSettings.enabled = saved;
  return waf;
}

function once(waf: Waf, request: EngineRequest): number {
  const tx = waf.newTransaction(request);
  tx.processRequest();
  tx.processLogging();
  return tx.matches.length;
}

/** Regex executions (RegExp#test/#exec calls) one request makes. */
function regexCalls(waf: Waf, request: EngineRequest): number {
  const { test, exec } = RegExp.prototype;
  let calls = 0;
  RegExp.prototype.test = function (this: RegExp, s: string) { calls++; return test.call(this, s); };
  RegExp.prototype.exec = function (this: RegExp, s: string) { calls++; return exec.call(this, s); };
  try {
    once(waf, request);
  } finally {
    RegExp.prototype.test = test;
    RegExp.prototype.exec = exec;
  }
  return calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load0 = loadavg()[0];
console.log(`prefilter ${aToA ? 'A/A (no gates on either side)' : 'A/B'}: ${rounds} rounds x ${perRound} requests per side, load average ${load0.toFixed(1)} at start`);
for (const pl of [1, 4]) {
  const off = load(pl, false);
  const c0 = process.cpuUsage();
  const on = load(pl, true);
  sharedLiteralIndex.prepare();
  const loadCost = process.cpuUsage(c0);
  console.log(`\nparanoia ${pl} (gated load incl. scanner build: ${((loadCost.user + loadCost.system) / 1000).toFixed(0)} ms CPU, ${sharedLiteralIndex.clauseCount} clauses)`);
  console.log(`${'request'.padEnd(16)} ${'off us'.padStart(8)} ${'on us'.padStart(8)} ${'on/off'.padStart(7)} ${'regex calls off'.padStart(16)} ${'on'.padStart(6)}`);
  for (const [name, request] of Object.entries(benchRequests)) {
    if (once(off, request) !== once(on, request)) throw new Error(`${name}: the prefilter changed the matches`);
    for (let i = 0; i < 100; i++) { once(off, request); once(on, request); }
    const samples: Record<'off' | 'on', number[]> = { off: [], on: [] };
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const waf = side === 'on' ? on : off;
        for (let i = 0; i < perRound; i++) {
          const t0 = process.cpuUsage();
          once(waf, request);
          const t = process.cpuUsage(t0);
          samples[side].push(t.user + t.system);
        }
      }
    }
    const a = median(samples.off), b = median(samples.on);
    console.log(`${name.padEnd(16)} ${a.toFixed(0).padStart(8)} ${b.toFixed(0).padStart(8)} ${(b / a).toFixed(2).padStart(7)} ${String(regexCalls(off, request)).padStart(16)} ${String(regexCalls(on, request)).padStart(6)}`);
  }
}
console.log(`\nload average at end ${loadavg()[0].toFixed(1)}`);
