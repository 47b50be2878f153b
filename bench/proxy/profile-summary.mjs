// Where the edge's CPU goes per request: reads the .cpuprofile files of one profile.sh run (the daemon primary and
// its edge workers) and splits their busy time into the WAF engine, the engine adapter, the proxy's own code,
// node:http/net, undici, GC and the rest; divided by the requests wrk sent, that is µs of CPU per request.
// usage: node bench/proxy/profile-summary.mjs <profile dir> <requests> [from_us until_us] [top N, default 25]
//   from_us/until_us: CLOCK_MONOTONIC µs (V8's profile clock; python3 time.monotonic()) bounding the measured load:
//   only samples in between count, so start-up (compiling CRS), warm-up and shutdown are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, requestsArg, fromArg, untilArg, topArg] = process.argv.slice(2);
const requests = Number(requestsArg);
if (!dir || !(requests > 0)) { console.error('usage: node bench/proxy/profile-summary.mjs <profile dir> <requests> [from_us until_us] [top]'); process.exit(2); }
const FROM = Number(fromArg ?? 0), UNTIL = Number(untilArg ?? Infinity);
const TOP = Number(topArg ?? 25);

/** Category of a call frame by its script; url-less frames (builtins, natives) take their caller's. */
function categoryOf(url, name) {
  if (name === '(garbage collector)') return 'gc';
  if (name === '(idle)') return 'idle';
  if (name === '(program)') return 'v8/native (program)';
  if (!url) return null;
  let m;
  if ((m = /\/daemon\/engine\/([^/]+)\//.exec(url))) return `engine: ${m[1]}`;
  if (/\/daemon\/engine\//.test(url)) return 'engine: core';
  if (/\/daemon\/waf\//.test(url)) return 'engine adapter (daemon/rule-sets)';
  if ((m = /\/daemon\/proxy\/(.+)\.js$/.exec(url))) return `proxy: ${m[1].replace(/\/.*/, '/')}`;
  if (/\/daemon\/(store|lifecycle)\//.test(url)) return 'event store / lifecycle';
  if (/node_modules\/undici\//.test(url)) return 'undici';
  if (/node_modules\//.test(url)) return `npm: ${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)[1]}`;
  if (/^node:(internal\/)?(http|_http|https|net|stream|internal\/streams|internal\/http|dns|tls)/.test(url) || /^node:_http/.test(url)) return 'node: http/net/streams';
  if (url.startsWith('node:')) return 'node: other';
  return 'other js';
}

const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
if (files.length === 0) { console.error(`no .cpuprofile in ${dir}`); process.exit(1); }
const byCategory = new Map();
const byFunction = new Map();
const byProcess = [];
let busyTotal = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const cat = new Map();
  const resolve = (id) => {
    if (cat.has(id)) return cat.get(id);
    const n = nodes.get(id);
    let c = categoryOf(n.callFrame.url, n.callFrame.functionName);
    if (c === null) c = parent.has(id) ? resolve(parent.get(id)) : 'v8/native (program)';
    if (c === 'idle' && parent.has(id)) c = 'idle';
    cat.set(id, c);
    return c;
  };
  // Sample i lasted timeDeltas[i + 1] (the delta recorded with the next sample).
  const self = new Map();
  const { samples, timeDeltas } = profile;
  let t = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i];
    if (t < FROM || t > UNTIL) continue;
    const dt = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
  }
  let busy = 0;
  for (const [id, us] of self) {
    const c = resolve(id);
    if (c === 'idle') continue;
    busy += us;
    byCategory.set(c, (byCategory.get(c) ?? 0) + us);
    const f = nodes.get(id).callFrame;
    const label = `${(f.functionName || '(anonymous)').slice(0, 60)} ${f.url ? `${f.url.replace(/^.*\/(dist|node_modules)\//, '').replace(/^node:/, 'node:')}:${f.lineNumber + 1}` : ''} [${c}]`;
    byFunction.set(label, (byFunction.get(label) ?? 0) + us);
  }
  busyTotal += busy;
  byProcess.push({ file, busyMs: busy / 1000, wallMs: (Math.min(UNTIL, profile.endTime) - Math.max(FROM, profile.startTime)) / 1000 });
}

const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
console.log(`${files.length} profiles, ${fmt(requests)} requests; busy (non-idle) CPU sampled: ${fmt(busyTotal / 1000)} ms = ${fmt(busyTotal / requests, 1)} µs/request`);
for (const p of byProcess) console.log(`  ${p.file}: busy ${fmt(p.busyMs)} ms of ${fmt(p.wallMs)} ms`);

const rows = [...byCategory].sort((a, b) => b[1] - a[1]);
const group = (prefix) => rows.filter(([c]) => c.startsWith(prefix)).reduce((a, [, us]) => a + us, 0);
const engine = group('engine: '), adapter = group('engine adapter'), proxy = group('proxy: ');
console.log(`\n| part | µs/request | share of busy CPU |\n|---|---:|---:|`);
for (const [label, us] of [['WAF engine (daemon/engine)', engine], ['engine adapter (daemon/rule-sets)', adapter], ["proxy's own code (daemon/proxy)", proxy],
  ['everything else (node:http/net, undici, GC, V8, event store)', busyTotal - engine - adapter - proxy]]) {
  console.log(`| ${label} | ${fmt(us / requests, 1)} | ${fmt((100 * us) / busyTotal, 1)} % |`);
}
console.log(`\n| category | µs/request | share |\n|---|---:|---:|`);
for (const [c, us] of rows) console.log(`| ${c} | ${fmt(us / requests, 1)} | ${fmt((100 * us) / busyTotal, 1)} % |`);
console.log(`\n| top ${TOP} functions by self time | µs/request | share |\n|---|---:|---:|`);
for (const [f, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`| ${f} | ${fmt(us / requests, 1)} | ${fmt((100 * us) / busyTotal, 1)} % |`);
