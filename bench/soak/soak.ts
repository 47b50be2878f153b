// The soak: a real daemon process (dist/, the CRS rule set at paranoia 1) in front of a
// real origin, driven for WAFCTL_SOAK_SECONDS (default 600) with mixed traffic at a modest pace (the
// machine is shared): benign and attack requests through the edge, WAF-event batches through
// ingestion, reads and writes on the management API. Faults on a schedule: two origin restarts, a
// daemon reload, a SIGKILL of the daemon and its restart on the same files. The daemon's RSS is
// sampled every 10 s. At the end: requests by kind and outcome, entries acknowledged vs found on
// disk, unexpected daemon exits, RSS min/max/last, written to bench/soak/results/.
//
//   npm run soak                              (builds, then 10 minutes)
//   WAFCTL_SOAK_SECONDS=60 npm run soak       (a one-minute check)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, Agent as HttpAgent, type Server } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AdminClient } from '../../shared/admin-client.js';
import { apiCall, signalAndWait, startDaemon, type DaemonProcess } from '../../test/reliability/support/daemon-process.js';

const SECONDS = Number(process.env.WAFCTL_SOAK_SECONDS ?? 600);
const SAMPLE_MS = 10_000;
const SITE = 'soak.example.test';
const CRS_DIR = process.env.WAFCTL_SOAK_CRS_DIR ?? '/usr/share/modsecurity-crs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// ---- the origin: a small real HTTP server that can be restarted on the same port
let origin: Server | null = null;
let originRequests = 0;
async function startOrigin(port: number): Promise<void> {
  origin = createHttpServer((req, res) => {
    originRequests++;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>page ${req.url}</body></html>`));
  });
  await new Promise<void>((resolve) => origin!.listen(port, '127.0.0.1', resolve));
}
async function stopOrigin(): Promise<void> {
  const server = origin;
  origin = null;
  if (server === null) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

// ---- the daemon
const home = mkdtempSync(join(tmpdir(), 'wafctl-soak-'));
const ports = { edge: await freePort(), edgeTls: await freePort(), api: await freePort(), origin: await freePort() };
const argv = ['--data-dir', join(home, 'data'), '--edge-port', String(ports.edge), '--edge-tls-port', String(ports.edgeTls), '--api-port', String(ports.api),
  '--workers', '1', '--crs-dir', CRS_DIR, '--ingest-rate-limit', '100000'];
let daemon: DaemonProcess;
let expectedExit = false;
let unexpectedExits = 0;

const outcomes = new Map<string, number>();
function count(kind: string, outcome: string | number): void {
  const key = `${kind} ${outcome}`;
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
}
const rss: Array<{ at_s: number; pid: number; rss_mb: number }> = [];
const faults: Array<{ at_s: number; fault: string }> = [];
const acknowledged: string[] = [];
const t0 = Date.now();
const elapsed = () => Math.round((Date.now() - t0) / 1000);

await startOrigin(ports.origin);
daemon = await startDaemon(argv);
const admin0 = new AdminClient(daemon.status.admin_socket);
await admin0.addSite({ domain: SITE, origin: `http://127.0.0.1:${ports.origin}`, plan: 'enterprise' });
const siteKey = (await admin0.siteKey(SITE)).api_key;
await admin0.setApiAccess(true);
const token = (await admin0.createToken('soak')).token;
await admin0.close();
console.log(`soak: ${SECONDS} s, daemon pid ${daemon.status.pid}, edge :${ports.edge}, api :${ports.api}, origin :${ports.origin}, CRS ${CRS_DIR}, load ${loadavg()[0].toFixed(2)}`);

const deadline = t0 + SECONDS * 1000;
const running = () => Date.now() < deadline;
const edgeAgent = new HttpAgent({ keepAlive: true, maxSockets: 4 });
const apiAgent = new HttpsAgent({ keepAlive: true, maxSockets: 2 });

function edgeGet(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: ports.edge, path, agent: edgeAgent, headers: { host: SITE, 'user-agent': 'Mozilla/5.0 (soak) Firefox/128.0' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

async function loop(kind: string, pauseMs: number, step: (i: number) => Promise<string | number>): Promise<void> {
  for (let i = 0; running(); i++) {
    try {
      count(kind, await step(i));
    } catch (error) {
      count(kind, `error ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      await sleep(200);
    }
    await sleep(pauseMs);
  }
}

const ATTACKS = ["/?id=1'%20UNION%20SELECT%20password%20FROM%20users--", '/?q=%3Cscript%3Ealert(1)%3C/script%3E', '/../../etc/passwd', '/?cmd=;cat%20/etc/passwd', '/wp-login.php?redirect_to=%27%22%3E%3Csvg/onload=alert(1)%3E'];

const traffic = [
  loop('benign', 20, (i) => edgeGet(`/products/${i % 500}?page=${i % 7}&sort=price`)),
  loop('attack', 150, (i) => edgeGet(ATTACKS[i % ATTACKS.length])),
  loop('ingest', 250, async (i) => {
    const uris = Array.from({ length: 20 }, (_, j) => `/soak-ingest/${i}-${j}`);
    const entries = uris.map((uri) => ({ timestamp_ms: Date.now(), host: SITE, client_ip: '198.51.100.20', uri, method: 'GET', waf_file: 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf', rule_id: '942100', severity: 'CRITICAL', msg: 'soak' }));
    const res = await apiCall(daemon, apiAgent, 'POST', '/api/vector/waf', { authorization: `Bearer ${token}` }, entries);
    if (res.status === 200) acknowledged.push(...uris);
    return res.status;
  }),
  // About one management call a second: under the read limit (120/min) and the write limit (30/min).
  loop('api', 1_000, async (i) => {
    const key = { 'x-service-key': siteKey };
    const step = i % 6;
    if (step === 4) return (await apiCall(daemon, apiAgent, 'POST', '/api/v1/ip-rules/blacklist', key, { ip: `10.77.${Math.floor(i / 6) % 256}.0/24`, description: 'soak' })).status;
    if (step === 5) return (await apiCall(daemon, apiAgent, 'DELETE', '/api/v1/ip-rules', key, { ip: `10.77.${Math.floor(i / 6) % 256}.0/24`, type: 'blacklist' })).status;
    const path = ['/api/v1/connect', '/api/v1/analytics?period=24h', '/api/v1/waf-logs?per_page=50&search=942100', '/api/v1/ip-rules'][step];
    return (await apiCall(daemon, apiAgent, 'GET', path, key)).status;
  }),
];

// ---- memory samples and crash watch
function rssMb(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : null;
  } catch {
    return null;
  }
}
const sampler = (async () => {
  while (running()) {
    const pid = daemon.status.pid;
    const mb = rssMb(pid);
    if (mb !== null) rss.push({ at_s: elapsed(), pid, rss_mb: +mb.toFixed(1) });
    else if (!expectedExit) {
      unexpectedExits++;
      faults.push({ at_s: elapsed(), fault: `daemon pid ${pid} gone without a fault injected: restarting` });
      daemon = await startDaemon(argv);
    }
    const last = rss.at(-1);
    console.log(`[${String(elapsed()).padStart(4)} s] rss ${last?.rss_mb ?? '?'} MB  ${[...outcomes.entries()].map(([k, n]) => `${k}:${n}`).join(' ')}`);
    await sleep(SAMPLE_MS);
  }
})();

// ---- faults on a schedule (fractions of the run)
const schedule: Array<[number, string, () => Promise<void>]> = [
  [0.2, 'origin restart', async () => { await stopOrigin(); await sleep(2_000); await startOrigin(ports.origin); }],
  [0.4, 'daemon reload (admin socket)', async () => { const a = new AdminClient(daemon.status.admin_socket); await a.reload(); await a.close(); }],
  [0.6, 'origin restart', async () => { await stopOrigin(); await sleep(2_000); await startOrigin(ports.origin); }],
  [0.7, 'daemon SIGKILL and restart', async () => {
    expectedExit = true;
    await signalAndWait(daemon.status.pid, 'SIGKILL');
    daemon = await startDaemon(argv);
    expectedExit = false;
  }],
];
for (const [at, name, inject] of schedule) {
  await sleep(Math.max(0, t0 + at * SECONDS * 1000 - Date.now()));
  faults.push({ at_s: elapsed(), fault: name });
  console.log(`[${String(elapsed()).padStart(4)} s] fault: ${name}`);
  await inject();
}

await Promise.all([...traffic, sampler]);
edgeAgent.destroy();
apiAgent.destroy();

// ---- the end: clean stop, then what is on disk
await daemon.stop();
await stopOrigin();
const found = new Set<string>();
const eventsDir = join(home, 'data', 'events');
for (const file of readdirSync(eventsDir).filter((f) => f.startsWith('waf-') && f.endsWith('.jsonl'))) {
  for (const line of readFileSync(join(eventsDir, file), 'utf8').split('\n')) {
    if (!line.includes('/soak-ingest/')) continue;
    found.add((JSON.parse(line) as { uri: string }).uri);
  }
}
const lost = acknowledged.filter((uri) => !found.has(uri)).length;
const mbs = rss.map((s) => s.rss_mb);
const summary = {
  at: new Date().toISOString(),
  seconds: SECONDS,
  load_average_end: +loadavg()[0].toFixed(2),
  requests: Object.fromEntries([...outcomes.entries()].sort()),
  origin_requests: originRequests,
  entries: { acknowledged: acknowledged.length, found: acknowledged.length - lost, lost },
  unexpected_daemon_exits: unexpectedExits,
  faults,
  rss_mb: { min: Math.min(...mbs), max: Math.max(...mbs), last: mbs.at(-1), samples: rss.length },
  rss_samples: rss,
};
console.log('\n' + JSON.stringify({ ...summary, rss_samples: undefined }, null, 2));
const out = join(fileURLToPath(new URL('.', import.meta.url)), 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, `soak-${SECONDS}s.json`), JSON.stringify(summary, null, 2) + '\n');
rmSync(home, { recursive: true, force: true });
process.exit(lost === 0 && unexpectedExits === 0 ? 0 : 1);
