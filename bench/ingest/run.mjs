#!/usr/bin/env node
// Ingestion end to end: `wafctl ingest` (real processes) -> daemon over HTTPS -> event store (fsync).
// Entries per second accepted with 1 client and with 4 concurrent clients, batches of 100; the
// daemon's CPU per entry (from /proc), the clients' CPU per entry (reaped children) and the daemon's
// peak RSS. Target on 2 cores: >= 50,000 entries/s.
//   node bench/ingest/run.mjs [--entries N] [--batch-size N] [--concurrency N] [--profile DIR]   (needs `npm run build`)
// --profile DIR: the daemon (started directly, --foreground) and every client write .cpuprofile files there.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/wafctl.js', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ENTRIES = arg('entries', 200_000);
const profileAt = process.argv.indexOf('--profile');
const PROFILE_DIR = profileAt > 0 ? process.argv[profileAt + 1] : null;
const profiled = (dir) => (dir ? ['--cpu-prof', '--cpu-prof-dir', dir] : []);
const BATCH = arg('batch-size', 100);
const CONCURRENCY = arg('concurrency', undefined); // wafctl ingest's own default unless given
const HOST = 'bench.example.test';
const TICKS = 100; // USER_HZ on Linux

const home = await mkdtemp(join(tmpdir(), 'wafctl-bench-ingest-'));
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), WAFCTL_DATA_DIR: join(home, 'data'), WAFCTL_INGEST_RATE_LIMIT: '1000000' };
const wafctl = async (...args) => JSON.parse((await run(process.execPath, [BIN, '--json', ...args], { env, maxBuffer: 1 << 24 })).stdout);

async function daemonCpuTicks(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
/** CPU of this process's reaped children (the ingest clients once they have exited). */
async function childrenCpuTicks() {
  const fields = (await readFile('/proc/self/stat', 'utf8')).split(') ')[1].split(' ');
  return Number(fields[13]) + Number(fields[14]);
}
async function daemonPeakRssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
}

function ingest(file, token) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...profiled(PROFILE_DIR), BIN, '--json', 'ingest', 'waf', file, '--token', token, '--batch-size', String(BATCH), ...(CONCURRENCY ? ['--concurrency', String(CONCURRENCY)] : [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`ingest exited ${code}: ${err}`))));
  });
}

async function writeEntries(file, count, tag) {
  const now = Date.now();
  const lines = new Array(count);
  for (let i = 0; i < count; i++) {
    lines[i] = JSON.stringify({
      timestamp_ms: now - (i % 86_400_000),
      host: HOST,
      client_ip: `203.0.${(i >> 8) & 255}.${i & 255}`,
      uri: `/wp-admin/admin-ajax.php?action=${tag}&id=${i}%27%20OR%201=1--`,
      method: 'GET',
      waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf',
      rule_id: '942100',
      severity: 'CRITICAL',
      msg: 'SQL Injection Attack Detected via libinjection',
      user_agent: 'Mozilla/5.0 (bench)',
      matched_var: 'ARGS:id',
      matched_data: `${i}' OR 1=1--`,
    });
  }
  await writeFile(file, lines.join('\n') + '\n');
}

async function round(label, clients, token, pid) {
  const per = Math.floor(ENTRIES / clients);
  const files = [];
  for (let c = 0; c < clients; c++) {
    const file = join(home, `${label}-${c}.ndjson`);
    await writeEntries(file, per, `${label}${c}`);
    files.push(file);
  }
  const cpuBefore = await daemonCpuTicks(pid);
  const clientCpuBefore = await childrenCpuTicks();
  const started = process.hrtime.bigint();
  const summaries = await Promise.all(files.map((file) => ingest(file, token)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuSeconds = ((await daemonCpuTicks(pid)) - cpuBefore) / TICKS;
  const clientCpuSeconds = ((await childrenCpuTicks()) - clientCpuBefore) / TICKS;
  const accepted = summaries.reduce((sum, s) => sum + s.accepted, 0);
  if (accepted !== per * clients) throw new Error(`${label}: accepted ${accepted} of ${per * clients}`);
  return { label, clients, entries: accepted, seconds, perSecond: accepted / seconds, daemonCpuUsPerEntry: (cpuSeconds * 1e6) / accepted, clientCpuUsPerEntry: (clientCpuSeconds * 1e6) / accepted };
}

/** `--cpu-prof` is refused in NODE_OPTIONS, so the profiled daemon is started here, in the foreground. */
async function startProfiledDaemon(flags) {
  const entry = fileURLToPath(new URL('../../dist/daemon/main.js', import.meta.url));
  const child = spawn(process.execPath, [...profiled(PROFILE_DIR), entry, '--data-dir', env.WAFCTL_DATA_DIR, ...flags, '--foreground'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
      if (err.includes('wafctl daemon ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`profiled daemon exited ${code}: ${err}`)));
  });
}

try {
  await mkdir(join(home, 'crs', 'rules'), { recursive: true });
  const daemonFlags = ['--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '1', '--crs-dir', join(home, 'crs')];
  if (PROFILE_DIR) await startProfiledDaemon(daemonFlags);
  else await run(process.execPath, [BIN, 'daemon', 'start', ...daemonFlags], { env });
  const { pid } = await wafctl('daemon', 'status');
  await wafctl('site', 'add', HOST, '--origin', 'http://127.0.0.1:9');
  const { token } = await wafctl('token', 'create', 'bench');

  const results = [await round('one-client', 1, token, pid), await round('four-clients', 4, token, pid)];
  const rss = await daemonPeakRssMb(pid);
  console.log(`ingest bench: ${ENTRIES.toLocaleString('en-US')} WAF events per round, batches of ${BATCH}, ${CONCURRENCY ?? 'default'} in flight per client, durable (fsync before the answer)`);
  console.log('round          clients   entries/s   seconds   daemon CPU us/entry   client CPU us/entry   vs target 50,000/s');
  for (const r of results) {
    console.log(
      `${r.label.padEnd(14)} ${String(r.clients).padStart(7)} ${Math.round(r.perSecond).toLocaleString('en-US').padStart(11)} ${r.seconds.toFixed(2).padStart(9)} ${r.daemonCpuUsPerEntry.toFixed(1).padStart(21)} ${r.clientCpuUsPerEntry.toFixed(1).padStart(21)} ${(r.perSecond / 50_000).toFixed(2).padStart(11)}x`,
    );
  }
  console.log(`daemon peak RSS: ${rss.toFixed(0)} MB`);
  console.log(JSON.stringify({ bench: 'ingest', entries: ENTRIES, batch: BATCH, concurrency: CONCURRENCY ?? null, results, daemonPeakRssMb: rss }));
} finally {
  await run(process.execPath, [BIN, 'daemon', 'stop'], { env }).catch(() => undefined);
  await rm(home, { recursive: true, force: true });
}
