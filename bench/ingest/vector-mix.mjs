#!/usr/bin/env node
// The shipper mix: what a Vector sink (or any HTTP log shipper) does to POST /api/vector/waf. The real
// daemon in a temp data dir with 3 sites and an ingestion token; 4 keep-alive HTTPS connections (one
// undici Pool, the daemon's CA pinned), each sending one batch of 100 varied WAF events at a time and
// the next only once the daemon acknowledged it (200 = written and fdatasync'ed), until 300,000 are
// acknowledged. Prints events/s end to end, the CPU per event of the daemon's processes (primary and
// edge workers, from /proc) and of this client, and the load average; then stops the daemon and checks
// in the store's segment files that every event sent is stored exactly once.
//   node bench/ingest/vector-mix.mjs [--events N] [--batch N] [--connections N] [--workers N]
//        [--spread-hours H] [--ipv6 SHARE] [--tree DIR] [--profile DIR] [--json]          (needs `npm run build`)
// --tree DIR: run the daemon of another build (an A/B: see ab-vector-mix.sh). --workers: the daemon's
// default (one per core) unless given. --profile DIR: the daemon runs under --cpu-prof (in the
// foreground; the flag reaches cluster workers through execArgv); profiles are written at its stop,
// with the measured window for profile-split.mjs.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { makeBatches } from './vector-mix-events.mjs';

const run = promisify(execFile);
const flag = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const num = (name, fallback) => (flag(name) === undefined ? fallback : Number(flag(name)));
const EVENTS = num('events', 300_000);
const BATCH = num('batch', 100);
const CONNECTIONS = num('connections', 4);
const WORKERS = flag('workers');
const SPREAD_MS = num('spread-hours', 24) * 3_600_000;
const IPV6 = num('ipv6', 0.1); // share of the non-repeat clients on IPv6
const TREE = resolve(flag('tree') ?? fileURLToPath(new URL('../..', import.meta.url)));
const PROFILE_DIR = flag('profile') ? resolve(flag('profile')) : null;
const JSON_ONLY = process.argv.includes('--json');
const BIN = join(TREE, 'bin/wafctl.js');
const HOSTS = ['shop.bench.test', 'blog.bench.test', 'api.bench.test'];
const TICKS = 100; // USER_HZ on Linux
const log = (line) => (JSON_ONLY ? process.stderr : process.stdout).write(`${line}\n`);

const home = await mkdtemp(join(tmpdir(), 'wafctl-bench-vector-mix-'));
const dataDir = join(home, 'data');
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), WAFCTL_DATA_DIR: dataDir, WAFCTL_INGEST_RATE_LIMIT: '1000000' };
const wafctl = async (...args) => JSON.parse((await run(process.execPath, [BIN, '--json', ...args], { env, maxBuffer: 1 << 24 })).stdout);

/** The daemon and its edge workers: CPU is counted over all of them. */
async function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    const tasks = await readdir(`/proc/${pids[i]}/task`).catch(() => []);
    for (const t of tasks) {
      const children = await readFile(`/proc/${pids[i]}/task/${t}/children`, 'utf8').catch(() => '');
      for (const c of children.split(' ').filter(Boolean)) pids.push(Number(c));
    }
  }
  return pids;
}
async function cpuTicks(pids) {
  let sum = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    const fields = stat.split(') ')[1].split(' ');
    sum += Number(fields[11]) + Number(fields[12]);
  }
  return sum;
}

async function startDaemon(flags) {
  if (!PROFILE_DIR) return void (await run(process.execPath, [BIN, 'daemon', 'start', ...flags], { env }));
  // --cpu-prof is refused in NODE_OPTIONS: the profiled daemon is started here, in the foreground.
  await mkdir(PROFILE_DIR, { recursive: true });
  const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR, join(TREE, 'dist/daemon/main.js'), '--data-dir', dataDir, ...flags, '--foreground'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((ready, fail) => {
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
      if (err.includes('wafctl daemon ready')) ready();
    });
    child.on('exit', (code) => fail(new Error(`profiled daemon exited ${code}: ${err}`)));
  });
}

/** `connections` senders over one keep-alive pool: each sends its next batch once the last was acknowledged. */
async function send(pool, token, bodies) {
  let next = 0;
  let acknowledged = 0;
  const latenciesMs = [];
  const ackedAt = [];
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  async function sender() {
    while (next < bodies.length) {
      const body = bodies[next++];
      const sentAt = performance.now();
      const res = await pool.request({ method: 'POST', path: '/api/vector/waf', headers, body });
      const answer = await res.body.json();
      const now = performance.now();
      latenciesMs.push(now - sentAt);
      ackedAt.push(now);
      if (res.statusCode !== 200) throw new Error(`batch answered ${res.statusCode}: ${JSON.stringify(answer)}`);
      acknowledged += answer.processed;
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, sender));
  latenciesMs.sort((a, b) => a - b);
  const at = (q) => +latenciesMs[Math.min(latenciesMs.length - 1, Math.floor(q * latenciesMs.length))].toFixed(2);
  // Answers that arrive within 0.3 ms of each other were (almost surely) acknowledged by one group
  // commit: batches per burst shows whether the 4 connections move in lockstep (4) or overlap (1-2).
  let bursts = 1;
  for (let i = 1; i < ackedAt.length; i++) if (ackedAt[i] - ackedAt[i - 1] > 0.3) bursts++;
  return { acknowledged, latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99) }, batchesPerAckBurst: +(ackedAt.length / bursts).toFixed(2) };
}

/** Every line of every WAF segment: each event sent exactly once, nothing else. */
async function checkStored(slotOf) {
  const dir = join(dataDir, 'events');
  const seen = new Uint8Array(EVENTS);
  let lines = 0;
  let duplicates = 0;
  let foreign = 0;
  for (const name of (await readdir(dir)).filter((n) => n.startsWith('waf-') && n.endsWith('.jsonl'))) {
    for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) {
      if (line === '') continue;
      lines++;
      const slot = slotOf(JSON.parse(line).timestamp_ms);
      if (slot < 0) foreign++;
      else if (seen[slot]++ > 0) duplicates++;
    }
  }
  const missing = seen.reduce((n, s) => n + (s === 0 ? 1 : 0), 0);
  return { lines, duplicates, foreign, missing, exactlyOnce: lines === EVENTS && duplicates === 0 && foreign === 0 && missing === 0 };
}

let stopped = false;
try {
  await mkdir(join(home, 'crs', 'rules'), { recursive: true });
  const flags = ['--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--crs-dir', join(home, 'crs'), ...(WORKERS ? ['--workers', WORKERS] : [])];
  await startDaemon(flags);
  const status = await wafctl('daemon', 'status');
  for (const host of HOSTS) await wafctl('site', 'add', host, '--origin', 'http://127.0.0.1:9');
  const { token } = await wafctl('token', 'create', 'bench-vector-mix');
  const ca = await readFile(status.ca_file, 'utf8');

  const { bodies, slotOf } = makeBatches({ count: EVENTS, batch: BATCH, hosts: HOSTS, now: Date.now(), spreadMs: SPREAD_MS, ipv6: IPV6 });
  const pool = new Pool(status.api_url, { connections: CONNECTIONS, pipelining: 1, connect: { ca } });
  const pids = await processTree(status.pid);
  const loadBefore = loadavg();
  const daemonBefore = await cpuTicks(pids);
  const clientBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const { acknowledged, latencyMs, batchesPerAckBurst } = await send(pool, token, bodies);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const daemonCpuS = ((await cpuTicks(pids)) - daemonBefore) / TICKS;
  const client = process.cpuUsage(clientBefore);
  const loadAfter = loadavg();
  await pool.close();
  if (PROFILE_DIR) {
    // The window profile-split.mjs keeps: hrtime is CLOCK_MONOTONIC, as V8's profile timestamps (µs).
    const us = (ns) => Number(ns / 1000n);
    await writeFile(join(PROFILE_DIR, 'window.json'), JSON.stringify({ from_us: us(started), until_us: us(started) + Math.round(seconds * 1e6), events: acknowledged }));
  }

  await run(process.execPath, [BIN, 'daemon', 'stop'], { env });
  stopped = true;
  const stored = await checkStored(slotOf);
  const result = {
    bench: 'ingest-vector-mix',
    tree: TREE,
    events: EVENTS,
    batch: BATCH,
    connections: CONNECTIONS,
    ipv6_share_of_spread: IPV6,
    daemon_processes: pids.length,
    acknowledged,
    seconds,
    events_per_s: acknowledged / seconds,
    daemon_cpu_us_per_event: (daemonCpuS * 1e6) / acknowledged,
    client_cpu_us_per_event: (client.user + client.system) / acknowledged,
    batch_latency_ms: latencyMs,
    batches_per_ack_burst: batchesPerAckBurst,
    load_before: loadBefore.map((l) => +l.toFixed(2)),
    load_after: loadAfter.map((l) => +l.toFixed(2)),
    stored,
  };
  log(`vector mix: ${acknowledged.toLocaleString('en-US')} WAF events acknowledged, ${HOSTS.length} sites, batches of ${BATCH}, ${CONNECTIONS} keep-alive HTTPS connections, ${pids.length} daemon process(es)`);
  log(`  ${Math.round(result.events_per_s).toLocaleString('en-US')} events/s (${(result.events_per_s / 50_000).toFixed(2)}x of 50,000) in ${seconds.toFixed(2)} s`);
  log(`  batch round trip (sent -> acknowledged durably) p50 ${latencyMs.p50} ms, p90 ${latencyMs.p90} ms, p99 ${latencyMs.p99} ms; ${batchesPerAckBurst} batches acknowledged together on average`);
  log(`  daemon CPU ${result.daemon_cpu_us_per_event.toFixed(1)} us/event, client CPU ${result.client_cpu_us_per_event.toFixed(1)} us/event`);
  log(`  load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after`);
  log(`  stored: ${stored.lines} lines, ${stored.missing} missing, ${stored.duplicates} duplicates, ${stored.foreign} unknown: ${stored.exactlyOnce ? 'every event exactly once' : 'NOT EXACTLY ONCE'}`);
  if (JSON_ONLY) console.log(JSON.stringify(result));
  if (!stored.exactlyOnce || acknowledged !== EVENTS) process.exitCode = 1;
} finally {
  if (!stopped) await run(process.execPath, [BIN, 'daemon', 'stop'], { env }).catch(() => undefined);
  await rm(home, { recursive: true, force: true });
}
