// Flood bench ("It must not fall over under a scan"): the real daemon (dist/, --workers N,
// CRS PL1) in front of a tiny origin, flooded with distinct attacks (attacks.mjs: random values and
// paths, a random client IP each via X-Forwarded-For from a trusted 127.0.0.1) by a closed loop of C
// connections, optionally capped at --rate requests/s, for --seconds. The RSS of the primary and of
// each worker is sampled every --sample-seconds and printed. At the end: every answer must have been
// a 403, and the daemon must account for every attack (analytics `requests_blocked` equals the
// attacks sent; /waf-logs total at least that). Exit code 1 when a check fails or a limit
// (--max-primary-mib, --max-worker-mib) is exceeded at the end.
//
//   npm run build && node bench/flood/run.mjs --seconds 120 --connections 8
//   node bench/flood/run.mjs --seconds 600 --connections 8 --max-primary-mib 400 --max-worker-mib 250
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { daemonReady, wafctlRunner } from '../lib/daemon-process.mjs';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { attackPath, randomIp } from './attacks.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({ options: {
  seconds: { type: 'string', default: '120' },
  connections: { type: 'string', default: '8' },
  rate: { type: 'string', default: '0' }, // 0: as fast as the closed loop goes
  workers: { type: 'string', default: '2' },
  'sample-seconds': { type: 'string', default: '5' },
  'settle-seconds': { type: 'string', default: '10' },
  'one-ip': { type: 'boolean', default: false },
  'max-primary-mib': { type: 'string', default: '0' },
  'max-worker-mib': { type: 'string', default: '0' },
  crs: { type: 'string', default: '/usr/share/modsecurity-crs' },
  flags: { type: 'string', default: '' },
  label: { type: 'string', default: '' },
  keep: { type: 'boolean', default: false },
} });
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const RATE = Number(args.rate);
const HOST = 'flood.example.test';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const rssMiB = (pid) => {
  try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024; } catch { return NaN; }
};
const cpuS = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
/** Child processes of `pid` (the edge workers), from /proc. */
function childrenOf(pid) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.split(') ')[1].split(' ')[1]) === pid) out.push(Number(d));
    } catch { /* gone */ }
  }
  return out.sort((a, b) => a - b);
}

async function startOrigin() {
  const child = spawn(process.execPath, [join(REPO, 'bench/overload/origin.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { child, port };
}

async function startDaemon(originPort) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wafctl-flood-'));
  const home = mkdtempSync(join(tmpdir(), 'wafctl-flood-home-'));
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), WAFCTL_DATA_DIR: dataDir };
  const argv = ['--data-dir', dataDir, '--workers', args.workers, '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0',
    '--crs-dir', args.crs, '--trusted-proxy', '127.0.0.1/32', ...args.flags.split(' ').filter(Boolean)];
  // The node flags `wafctl daemon start` gives the daemon (a heap cap when WAFCTL_DAEMON_HEAP_MIB is set), so the figures are the launcher's.
  const { daemonNodeArgs } = await import(join(REPO, 'dist/shared/daemon-node-args.js'));
  const child = spawn(process.execPath, [...daemonNodeArgs(env), join(REPO, 'dist/daemon/main.js'), ...argv], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const status = await daemonReady(child);
  const cli = wafctlRunner(REPO, env);
  const key = JSON.parse(await cli('--json', 'site', 'add', HOST, '--origin', `http://127.0.0.1:${originPort}`)).api_key;
  return { child, status, key, dataDir, home, pid: status.pid, edgeUrl: `http://127.0.0.1:${status.ports.edge}`, ca: readFileSync(status.ca_file, 'utf8') };
}

function api(daemon, path) {
  return new Promise((resolve, reject) => {
    const req = https.request(`${daemon.status.api_url}/api/v1${path}`, { ca: daemon.ca, servername: 'localhost', headers: { 'x-service-key': daemon.key } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (data += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(data)) : reject(new Error(`${path}: ${res.statusCode} ${data}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The site is live on the edge once an attack gets the block page (a new site is applied on the next snapshot). */
async function waitForSite(pool) {
  for (let i = 0; i < 200; i++) {
    const { statusCode, body } = await pool.request({ path: attackPath(0), method: 'GET', headers: { host: HOST } });
    await body.dump();
    if (statusCode === 403) return;
    await sleep(50);
  }
  throw new Error('the edge never blocked the first attack');
}

async function flood(daemon, pool, tally) {
  const begin = performance.now();
  const until = begin + SECONDS * 1000;
  let n = 0;
  const one = async () => {
    while (performance.now() < until) {
      const k = n++;
      if (RATE > 0) {
        const due = begin + (k / RATE) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        if (performance.now() >= until) return;
      }
      const headers = { host: HOST, 'user-agent': 'Mozilla/5.0 (flood bench scanner)' };
      if (!args['one-ip']) headers['x-forwarded-for'] = randomIp();
      try {
        const { statusCode, body } = await pool.request({ path: attackPath(k), method: 'GET', headers });
        await body.dump();
        tally.statuses[statusCode] = (tally.statuses[statusCode] ?? 0) + 1;
        if (statusCode === 403) tally.blocked++; else tally.notBlocked++;
      } catch {
        tally.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, one));
  return (performance.now() - begin) / 1000;
}

function sampler(daemon, rows) {
  const started = performance.now();
  let lastSent = 0;
  const take = (tally) => {
    const workers = childrenOf(daemon.pid);
    const sent = tally.blocked + tally.notBlocked + tally.errors;
    const row = { t: (performance.now() - started) / 1000, sent, rate: 0, primary: rssMiB(daemon.pid), workers: workers.map(rssMiB) };
    row.rate = rows.length ? (sent - lastSent) / (row.t - rows.at(-1).t) : 0;
    lastSent = sent;
    rows.push(row);
    console.log(`t=${row.t.toFixed(0).padStart(4)} s  attacks ${String(sent).padStart(8)} (${row.rate.toFixed(0).padStart(5)}/s)  primary ${row.primary.toFixed(0).padStart(5)} MiB  workers ${row.workers.map((w) => `${w.toFixed(0)} MiB`).join(', ')}`);
  };
  return take;
}

async function main() {
  const result = { date: new Date().toISOString(), label: args.label, seconds: SECONDS, connections: CONNECTIONS, rate: RATE, workers: Number(args.workers), oneIp: args['one-ip'], flags: args.flags, loadavgAtStart: loadavg()[0] };
  const origin = await startOrigin();
  const daemon = await startDaemon(origin.port);
  const pool = new Pool(daemon.edgeUrl, { connections: CONNECTIONS, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const tally = { blocked: 0, notBlocked: 0, errors: 0, statuses: {} };
  const rows = [];
  let failed = false;
  try {
    await waitForSite(pool);
    // The probes' own events reach the store a moment later (batched): wait until the counts hold still.
    let before = await api(daemon, '/analytics?period=24h');
    for (;;) {
      await sleep(500);
      const again = await api(daemon, '/analytics?period=24h');
      if (again.data.requests_blocked === before.data.requests_blocked) break;
      before = again;
    }
    const blockedBefore = before.data.requests_blocked ?? 0;
    const wafBefore = (await api(daemon, '/waf-logs?per_page=10')).data.pagination.total;
    const cpu0 = cpuS(daemon.pid);
    const take = sampler(daemon, rows);
    take(tally);
    const timer = setInterval(() => take(tally), Number(args['sample-seconds']) * 1000);
    const elapsed = await flood(daemon, pool, tally);
    clearInterval(timer);
    take(tally);
    result.primaryCpuS = cpuS(daemon.pid) - cpu0;
    await sleep(Number(args['settle-seconds']) * 1000);
    take(tally);
    const after = await api(daemon, '/analytics?period=24h');
    const waf = (await api(daemon, '/waf-logs?per_page=10')).data.pagination.total;
    const uriProbe = await api(daemon, '/waf-logs?per_page=10&search=uri:item.php');
    const sent = tally.blocked + tally.notBlocked + tally.errors;
    Object.assign(result, {
      elapsed, sent, perSecond: sent / elapsed, ...tally,
      blockedCounted: (after.data.requests_blocked ?? 0) - blockedBefore, wafEvents: waf - wafBefore, uriItemPhpTotal: uriProbe.data.pagination.total,
      rssStart: rows[0], rssEnd: rows.at(-1), primaryMaxMiB: Math.max(...rows.map((r) => r.primary)),
      workerMaxMiB: Math.max(...rows.flatMap((r) => r.workers)), loadavgAtEnd: loadavg()[0], samples: rows,
    });
    const mib = (r) => r.primary;
    const growth = sent > 0 ? (mib(result.rssEnd) - mib(result.rssStart)) / (sent / 1e6) : 0;
    result.primaryMiBPerMillionAttacks = growth;
    console.log(`\nflood ${result.date} (${args.label || 'no label'}): ${sent} attacks in ${elapsed.toFixed(0)} s (${result.perSecond.toFixed(0)}/s), ${CONNECTIONS} connections, ${args.workers} workers, load average ${result.loadavgAtStart.toFixed(1)} -> ${result.loadavgAtEnd.toFixed(1)}`);
    console.log(`  answers: ${JSON.stringify(tally.statuses)}, errors ${tally.errors}`);
    console.log(`  counted by the daemon: requests_blocked +${result.blockedCounted}, WAF events +${result.wafEvents} (${(result.wafEvents / Math.max(1, sent)).toFixed(2)} per attack); search uri:item.php total ${result.uriItemPhpTotal}`);
    console.log(`  primary RSS ${mib(result.rssStart).toFixed(0)} -> ${mib(result.rssEnd).toFixed(0)} MiB (max ${result.primaryMaxMiB.toFixed(0)}), ${growth.toFixed(0)} MiB per million attacks; workers max ${result.workerMaxMiB.toFixed(0)} MiB; primary CPU ${result.primaryCpuS.toFixed(1)} s`);
    const problems = [];
    if (tally.notBlocked > 0 || tally.errors > 0) problems.push(`${tally.notBlocked} not blocked, ${tally.errors} errors`);
    if (result.blockedCounted !== tally.blocked) problems.push(`requests_blocked counted ${result.blockedCounted}, blocked ${tally.blocked}`);
    if (result.wafEvents < tally.blocked) problems.push(`only ${result.wafEvents} WAF events for ${tally.blocked} blocked attacks`);
    const maxP = Number(args['max-primary-mib']);
    const maxW = Number(args['max-worker-mib']);
    if (maxP > 0 && mib(result.rssEnd) > maxP) problems.push(`primary ${mib(result.rssEnd).toFixed(0)} MiB > ${maxP}`);
    if (maxW > 0 && result.rssEnd.workers.some((w) => w > maxW)) problems.push(`a worker above ${maxW} MiB`);
    result.problems = problems;
    if (problems.length) { failed = true; console.log(`  FAILED: ${problems.join('; ')}`); } else console.log('  ok: every attack blocked and counted');
  } finally {
    await pool.close();
    daemon.child.kill('SIGTERM');
    origin.child.kill('SIGTERM');
    await new Promise((r) => daemon.child.once('exit', r));
    if (!args.keep) { rmSync(daemon.dataDir, { recursive: true, force: true }); rmSync(daemon.home, { recursive: true, force: true }); }
  }
  mkdirSync(join(REPO, 'bench/flood/results'), { recursive: true });
  writeFileSync(join(REPO, `bench/flood/results/latest${args.label ? `-${args.label}` : ''}.json`), JSON.stringify(result, null, 2));
  if (failed) process.exitCode = 1;
}

await main();
