#!/usr/bin/env node
// Where the daemon's time per ingested event goes: reads the .cpuprofile files that
// `vector-mix.mjs --profile DIR` left (the primary, which owns the API and the store, and the idle edge
// workers) and splits the samples taken while events were being sent (DIR/window.json, CLOCK_MONOTONIC
// µs like V8's profile clock: start-up and shutdown are left out) into the steps of the ingest path.
// Divided by the events acknowledged, that is µs per event of sampled time. On a loaded box V8 samples
// wall time while the thread runs or waits for a CPU, so the shares are the thing to read; the /proc
// CPU per event that vector-mix.mjs prints is the cost.
//   node bench/ingest/profile-split.mjs DIR [top N functions, default 25]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, topArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/ingest/profile-split.mjs DIR [top]');
  process.exit(2);
}
const { from_us: FROM, until_us: UNTIL, events: EVENTS } = JSON.parse(readFileSync(join(dir, 'window.json'), 'utf8'));
const TOP = Number(topArg ?? 25);

const STEPS = [
  [/node_modules\/secure-json-parse\/|\/daemon\/ingest\/json-body\.js/, 'JSON parse of the body'],
  [/\/daemon\/ingest\/(entry-check|batch)\.js|node_modules\/zod\/|\/shared\/schemas\/(ingest|ip)\.js/, 'validation (entry checks, zod)'],
  [/\/daemon\/ingest\/|\/daemon\/app-services\.js|\/shared\/schemas\/domain\.js|\/daemon\/rate-limit\//, 'ingest route: token, hosts, rule group, answer'],
  [/\/daemon\/store\/events\/entry-lines\.js/, 'serialization of the stored lines'],
  [/\/daemon\/store\/events\/(waf-index|site-waf-index|string-table|postings|uri-column|ip-address|growable-array|slot-index|access-rollups|hyperloglog|chunk-spill)\.js|node_modules\/ipaddr\.js\//, 'index update (search columns, postings)'],
  [/\/daemon\/store\/|^node:(internal\/)?fs/, 'append, group commit, file writes and fdatasync'],
  [/node_modules\/(fastify|@fastify|find-my-way|avvio|pino|fast-json-stringify|light-my-request|toad-cache|abstract-logging)\//, 'fastify (routing, hooks, reply)'],
  [/^node:(internal\/)?(_?https?|_http_\w+|net|tls|_tls_\w+|stream|streams\/\w+|http\/\w+|stream_base_commons|tls\/\w+)/, 'node: HTTP parsing, TLS, sockets'],
];
function stepOf(url, name) {
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(idle)') return 'idle';
  if (name === '(program)') return 'V8 / native (program)';
  if (!url) return null; // builtins and natives count for their caller
  for (const [re, step] of STEPS) if (re.test(url)) return step;
  if (url.startsWith('node:')) return 'node: other (timers, promises, events)';
  return 'other';
}

const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
const bySteps = new Map();
const byFunction = new Map();
let busyTotal = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map();
  const resolve = (id) => {
    if (memo.has(id)) return memo.get(id);
    const n = nodes.get(id);
    let s = stepOf(n.callFrame.url, n.callFrame.functionName);
    if (s === null) s = parent.has(id) ? resolve(parent.get(id)) : 'V8 / native (program)';
    memo.set(id, s);
    return s;
  };
  const self = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < FROM || t > UNTIL) continue;
    const dt = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
  }
  for (const [id, us] of self) {
    const s = resolve(id);
    if (s === 'idle') continue;
    busyTotal += us;
    bySteps.set(s, (bySteps.get(s) ?? 0) + us);
    const f = nodes.get(id).callFrame;
    const label = `${(f.functionName || '(anonymous)').slice(0, 50)} ${f.url ? `${f.url.replace(/^.*\/(dist|node_modules)\//, '')}:${f.lineNumber + 1}` : ''}`;
    byFunction.set(label, (byFunction.get(label) ?? 0) + us);
  }
}

const fmt = (x, d = 1) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
console.log(`${files.length} profiles, ${EVENTS.toLocaleString('en-US')} events, ${fmt((UNTIL - FROM) / 1e6, 2)} s sent; busy samples ${fmt(busyTotal / 1000, 0)} ms = ${fmt(busyTotal / EVENTS, 2)} µs/event`);
console.log('\n| step | µs/event | share |\n|---|---:|---:|');
for (const [s, us] of [...bySteps].sort((a, b) => b[1] - a[1])) console.log(`| ${s} | ${fmt(us / EVENTS, 2)} | ${fmt((100 * us) / busyTotal)} % |`);
console.log(`\n| top ${TOP} functions by self time | µs/event | share |\n|---|---:|---:|`);
for (const [f, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`| ${f} | ${fmt(us / EVENTS, 2)} | ${fmt((100 * us) / busyTotal)} % |`);
