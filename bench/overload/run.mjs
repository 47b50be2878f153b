// Overload bench: the real daemon (dist/, one edge worker, so the edge shares its event loop with the
// management API and the admin socket: the hardest case) with the WAF on (cms + CRS PL1), a real origin
// in its own process, an undici load generator here.
//   1. capacity: closed loop, 16 connections (few enough that the worker never sheds), benign GETs -> served req/s
//   2. flood: open loop at FACTOR x capacity (default 2) -> served vs shed (503) vs errors, latency of the
//      served, the API (GET /api/v1/connect, new TLS connection each) and the admin socket (GET
//      /admin/status) probed every 100 ms, daemon RSS sampled every 250 ms
//   3. after: RSS once the flood has been over for 15 s (--settle-seconds)
// With --compare the same flood runs against a daemon with shedding off (the anchor: the unbounded
// edge), so memory and API latency can be put side by side.
//
//   npm run build && node bench/overload/run.mjs [--scenario cpu|slow-origin] [--seconds 10] [--factor 2] [--compare] [--flags="--edge-max-in-flight 256"]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { daemonReady, wafctlRunner } from '../lib/daemon-process.mjs';
import { parseArgs } from 'node:util';
import { closedLoop, openLoop, percentile } from './load.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({ options: {
  seconds: { type: 'string', default: '10' }, factor: { type: 'string', default: '2' },
  compare: { type: 'boolean', default: false }, flags: { type: 'string', default: '' },
  crs: { type: 'string', default: '/usr/share/modsecurity-crs' }, capacity: { type: 'string' },
  scenario: { type: 'string', default: 'cpu' },
  pin: { type: 'boolean', default: false },
  'settle-seconds': { type: 'string', default: '15' },
} });
const SETTLE_S = Number(args['settle-seconds']);
// --pin (taskset): the daemon on CPU 0, the origin and this load generator on CPU 1, so the flood does
// not take the daemon's CPU away (on 2 cores the generator needs about one core at 2x).
const pinned = (cpu, cmd, argv) => (args.pin ? ['taskset', ['-c', String(cpu), cmd, ...argv]] : [cmd, argv]);
if (args.pin) spawnSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
// cpu: benign GETs, a fast origin: the worker runs out of CPU (the WAF engine).
// slow-origin: an origin that takes 1 s per request: the origin pool (64 connections) is the bottleneck
// (capacity 64 req/s whatever the CPU), and an unbounded edge queues the excess (memory, latency);
// the in-flight bound caps that queue (try --flags="--edge-max-in-flight 128").
const SLOW = args.scenario === 'slow-origin';
if (!SLOW && args.scenario !== 'cpu') throw new Error('--scenario cpu|slow-origin');
const BODY = null;
const CAPACITY_CONNECTIONS = SLOW ? 64 : 16;
const SECONDS = Number(args.seconds);
const FACTOR = Number(args.factor);
const HOST = 'bench.example.test';
const PATH = '/index.html?q=hello+world&page=2';

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const cpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startOrigin() {
  const child = spawn(...pinned(1, process.execPath, [join(REPO, 'bench/overload/origin.mjs')]), { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ORIGIN_DELAY_MS: SLOW ? '1000' : '0' } });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { child, port };
}

async function startDaemon(originPort, extraFlags) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wafctl-overload-'));
  const home = mkdtempSync(join(tmpdir(), 'wafctl-overload-home-'));
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), WAFCTL_DATA_DIR: dataDir };
  const argv = ['--data-dir', dataDir, '--workers', '1', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--crs-dir', args.crs, ...extraFlags];
  const child = spawn(...pinned(0, process.execPath, [join(REPO, 'dist/daemon/main.js'), ...argv]), { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const status = await daemonReady(child);
  const cli = wafctlRunner(REPO, env);
  const key = JSON.parse(await cli('--json', 'site', 'add', HOST, '--origin', `http://127.0.0.1:${originPort}`)).api_key;
  const edgeUrl = `http://127.0.0.1:${status.ports.edge}`;
  for (let i = 0; i < 100; i++) { // the edge applies the new site on the next snapshot
    const r = await closedLoop({ url: edgeUrl, host: HOST, path: PATH, connections: 1, seconds: 0.05 });
    if (r.ok > 0) break;
    await sleep(50);
  }
  return { child, status, key, edgeUrl, pid: status.pid, dataDir, ca: readFileSync(status.ca_file, 'utf8') };
}

function probe(daemon) {
  const api = [];
  const admin = [];
  const apiAgent = new https.Agent({ ca: daemon.ca, keepAlive: false });
  const timed = (list, fn) => { const s = performance.now(); fn((ok) => list.push(ok ? performance.now() - s : Infinity)); };
  const timer = setInterval(() => {
    timed(api, (done) => {
      const req = https.request(`${daemon.status.api_url}/api/v1/connect`, { agent: apiAgent, headers: { 'x-service-key': daemon.key }, timeout: 5_000 }, (res) => { res.resume(); res.on('end', () => done(res.statusCode === 200)); });
      req.on('error', () => done(false)); req.on('timeout', () => req.destroy()); req.end();
    });
    timed(admin, (done) => {
      const req = http.request({ socketPath: daemon.status.admin_socket, path: '/admin/status', timeout: 5_000 }, (res) => { res.resume(); res.on('end', () => done(res.statusCode === 200)); });
      req.on('error', () => done(false)); req.on('timeout', () => req.destroy()); req.end();
    });
  }, 100);
  return { stop: async () => { clearInterval(timer); await sleep(1_000); return { api, admin }; } };
}

function sampleRss(pid) {
  const samples = [];
  const timer = setInterval(() => samples.push(rssMiB(pid)), 250);
  return () => { clearInterval(timer); return samples; };
}

/** The edge's own view: request_time of the access entries since `sinceS` (head received -> response done). */
function edgeSideTimes(daemon, sinceS) {
  const dir = join(daemon.dataDir, 'events');
  const times = [];
  for (const name of readdirSync(dir).filter((n) => n.startsWith('access-'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      const e = JSON.parse(line);
      if (e.timestamp >= sinceS && e.status === 200) times.push(e.request_time * 1000);
    }
  }
  return times;
}

async function flood(daemon, rate, label) {
  const sinceS = Math.floor(Date.now() / 1000);
  const rssBefore = rssMiB(daemon.pid);
  const cpuBefore = cpuMs(daemon.pid);
  const stopRss = sampleRss(daemon.pid);
  const probes = probe(daemon);
  const load = await openLoop({ url: daemon.edgeUrl, host: HOST, path: PATH, rate, seconds: SECONDS, connections: 2048, maxOutstanding: 20_000, body: BODY });
  const { api, admin } = await probes.stop();
  const during = stopRss();
  const cpu = cpuMs(daemon.pid) - cpuBefore;
  // V8 gives memory back once allocation has been low for a while (its memory reducer): wait (15 s by default).
  await sleep(SETTLE_S * 1000);
  const rssAfter = rssMiB(daemon.pid);
  const edgeTimes = edgeSideTimes(daemon, sinceS);
  const answered = load.ok + load.shed + load.other;
  return {
    label, offeredRate: rate, offered: load.offered, notSent: load.notSent, generatorLagP50ms: load.sendLagP50ms, generatorLagP99ms: load.sendLagP99ms, served: load.ok, shed: load.shed, other: load.other, errors: load.errors,
    statuses: load.statuses, servedPerSecond: load.ok / load.elapsed,
    servedP50ms: percentile(load.latenciesOk, 50), servedP99ms: percentile(load.latenciesOk, 99),
    edgeSideP50ms: percentile(edgeTimes, 50), edgeSideP99ms: percentile(edgeTimes, 99),
    apiP50ms: percentile(api, 50), apiP99ms: percentile(api, 99), apiMaxMs: Math.max(...api), apiOver1s: api.filter((x) => x > 1000).length, apiProbes: api.length,
    adminP99ms: percentile(admin, 99), adminMaxMs: Math.max(...admin), adminOver1s: admin.filter((x) => x > 1000).length, adminProbes: admin.length,
    rssBeforeMiB: rssBefore, rssDuringMaxMiB: Math.max(...during), rssAfterMiB: rssAfter,
    daemonCpuMsPerAnswered: answered ? cpu / answered : NaN,
  };
}

async function main() {
  const load1 = loadavg()[0];
  const origin = await startOrigin();
  const results = { date: new Date().toISOString(), scenario: args.scenario, pinned: args.pin, seconds: SECONDS, factor: FACTOR, loadavgAtStart: load1, flags: args.flags, runs: [] };
  let daemon = await startDaemon(origin.port, args.flags.split(' ').filter(Boolean));
  try {
    await closedLoop({ url: daemon.edgeUrl, host: HOST, path: PATH, connections: 16, seconds: 2 }); // warm-up (JIT, pools)
    const cpu0 = cpuMs(daemon.pid);
    const cap = await closedLoop({ url: daemon.edgeUrl, host: HOST, path: PATH, connections: CAPACITY_CONNECTIONS, seconds: SECONDS, body: BODY });
    const capacity = args.capacity ? Number(args.capacity) : cap.okPerSecond;
    results.capacity = { servedPerSecond: cap.okPerSecond, shed: cap.shed, errors: cap.errors, p99ms: percentile(cap.latenciesOk, 99), daemonCpuMsPerRequest: (cpuMs(daemon.pid) - cpu0) / Math.max(1, cap.ok + cap.shed), used: capacity };
    console.error(`capacity: ${cap.okPerSecond.toFixed(0)} req/s served (${cap.shed} shed) with ${CAPACITY_CONNECTIONS} connections; flooding at ${FACTOR}x = ${(capacity * FACTOR).toFixed(0)} req/s for ${SECONDS} s`);
    await sleep(3_000);
    results.runs.push(await flood(daemon, Math.round(capacity * FACTOR), `shedding on${args.flags ? ` (${args.flags})` : ' (defaults)'}`));
    if (args.compare) {
      daemon.child.kill('SIGTERM');
      await sleep(1_500);
      daemon = await startDaemon(origin.port, ['--edge-max-in-flight', '0', '--edge-shed-loop-delay-ms', '0']);
      await closedLoop({ url: daemon.edgeUrl, host: HOST, path: PATH, connections: 16, seconds: 2 });
      await sleep(3_000);
      results.runs.push(await flood(daemon, Math.round(capacity * FACTOR), 'shedding off (anchor: unbounded edge)'));
    }
  } finally {
    daemon.child.kill('SIGTERM');
    origin.child.kill('SIGTERM');
  }
  results.loadavgAtEnd = loadavg()[0];
  mkdirSync(join(REPO, 'bench/overload/results'), { recursive: true });
  writeFileSync(join(REPO, `bench/overload/results/latest-${args.scenario}.json`), JSON.stringify(results, null, 2));
  print(results);
}

function print(r) {
  const f = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
  console.log(`overload bench (${r.scenario}${r.pinned ? ', daemon pinned to CPU 0, generator and origin to CPU 1' : ''}) ${r.date}: load average ${f(r.loadavgAtStart, 1)} -> ${f(r.loadavgAtEnd, 1)} on ${'2'} cores shared`);
  console.log(`capacity (closed loop, ${CAPACITY_CONNECTIONS} conns): ${f(r.capacity.servedPerSecond)} req/s, p99 ${f(r.capacity.p99ms, 1)} ms, daemon CPU ${f(r.capacity.daemonCpuMsPerRequest, 3)} ms/request`);
  for (const run of r.runs) {
    console.log(`\n${run.label}: offered ${run.offered} at ${run.offeredRate} req/s (${r.factor}x), not sent (generator cap) ${run.notSent}, generator lag p50 ${f(run.generatorLagP50ms, 1)} ms p99 ${f(run.generatorLagP99ms, 1)} ms`);
    console.log(`  served ${run.served} (${f(run.servedPerSecond)} req/s = ${f(run.servedPerSecond / r.capacity.used, 2)}x capacity), shed 503 ${run.shed}, other ${run.other}, errors/timeouts ${run.errors}`);
    console.log(`  served latency (client) p50 ${f(run.servedP50ms, 1)} ms p99 ${f(run.servedP99ms, 1)} ms; in the edge (access log request_time) p50 ${f(run.edgeSideP50ms, 1)} ms p99 ${f(run.edgeSideP99ms, 1)} ms; daemon CPU ${f(run.daemonCpuMsPerAnswered, 3)} ms per answered request`);
    console.log(`  API during flood: p50 ${f(run.apiP50ms, 1)} ms p99 ${f(run.apiP99ms, 1)} ms max ${f(run.apiMaxMs, 1)} ms, over 1 s: ${run.apiOver1s}/${run.apiProbes}`);
    console.log(`  admin socket during flood: p99 ${f(run.adminP99ms, 1)} ms max ${f(run.adminMaxMs, 1)} ms, over 1 s: ${run.adminOver1s}/${run.adminProbes}`);
    console.log(`  daemon RSS: before ${f(run.rssBeforeMiB, 1)} MiB, during max ${f(run.rssDuringMaxMiB, 1)} MiB, ${SETTLE_S} s after ${f(run.rssAfterMiB, 1)} MiB`);
  }
  if (r.runs.length === 2) {
    const [on, off] = r.runs;
    console.log(`\nratios shedding on / off: RSS growth ${f((on.rssDuringMaxMiB - on.rssBeforeMiB) / Math.max(0.1, off.rssDuringMaxMiB - off.rssBeforeMiB), 2)}, API p99 ${f(on.apiP99ms / off.apiP99ms, 2)}, served ${f(on.served / Math.max(1, off.served), 2)}`);
  }
}

await main();
