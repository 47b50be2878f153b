// The engine's time budget through the real daemon (dist/, CRS 3.3.4 at paranoia 1) in front of a
// real origin: a request the engine cannot judge within --waf-time-budget-ms of
// CPU time is refused like a rule block (the site's block response and a WAF event `engine-budget`),
// whatever the site's on_engine_error says: running out of the budget is a property of the request,
// so it must not be a way to choose fail-open. A site in detect mode logs it and forwards it. The
// next request on the same keep-alive connection is served. With two edge workers, the flag reaches
// each worker: budget 0 lets a slow request through.
//
// The slow requests are form bodies of `|` (CRS 932100's worst shape). Measured with the engine alone,
// no budget (2026-11-25, load average ~8 on the shared 2-core box): 64 KiB 15.1 s, 8 KiB ~0.7 s.
// Each test has its own site on the shared daemon and its own paths, so no test depends on another.
import { readFileSync } from 'node:fs';
import { createServer, Agent, request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, stopAll, type E2eDaemon } from '../e2e/daemon-harness.js';

let origin: Server;
let originPort: number;
const received: Array<{ method: string; url: string; bytes: number }> = [];

beforeAll(async () => {
  origin = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => { bytes += chunk.length; });
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, bytes });
      res.end('origin ok');
    });
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as { port: number }).port;
});
afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

interface Answer { status: number; body: string; reused: boolean; requestId: string | undefined }

function send(port: number, agent: Agent, host: string, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e', accept: 'text/html' };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) });
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body: text, reused: req.reusedSocket, requestId: res.headers['x-request-id'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const pipes = (n: number) => 'q=' + '|'.repeat(n);
const reachedOrigin = (path: string) => received.filter((r) => r.url === path);

async function startDaemon(extra: string[]): Promise<{ d: E2eDaemon; edge: number }> {
  const d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', ...extra);
  expect(start.code, start.stderr).toBe(0);
  const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number }; crs: { found: boolean } };
  expect(status.crs.found, 'the Core Rule Set is installed (apt-get install modsecurity-crs)').toBe(true);
  return { d, edge: status.ports.edge };
}

/** Adds a site with `settings` (site set flags) and waits until the edge serves it. */
async function addSite(d: E2eDaemon, edge: number, host: string, settings: string[] = []): Promise<void> {
  const add = await d.wafctl('site', 'add', host, '--origin', `http://127.0.0.1:${originPort}`);
  expect(add.code, add.stderr).toBe(0);
  if (settings.length > 0) {
    const set = await d.wafctl('site', 'set', host, ...settings);
    expect(set.code, set.stderr).toBe(0);
  }
  // The edge applies config from its next snapshot: wait until the site, with its settings, is in force.
  const agent = new Agent({ keepAlive: false });
  const probe = `/ready-${settings.join('-')}`;
  for (let tries = 0; tries < 100; tries++) {
    const answer = await send(edge, agent, host, 'GET', `${probe}?try=${tries}&q=1'%20OR%20'1'='1`);
    const ready = settings.includes('detect') ? answer.status === 200 : answer.status === 403;
    if (ready) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  agent.destroy();
}

interface LogEntry { waf_rule_id: string; group: string; uri: string; host: string }

/** The daemon log's lines about requests over the budget (console.warn of the edge, routed to the
 *  log in the primary and from each worker: daemon/lifecycle/console-to-log.ts). */
function budgetLines(d: E2eDaemon): string[] {
  return readFileSync(join(d.box.dataDir, 'daemon.log'), 'utf8').split('\n').filter((l) => l.includes('engine time budget'));
}

/** The engine-budget event for `uri` in the site's `wafctl logs`, once the event store has it. */
async function budgetEvent(d: E2eDaemon, host: string, uri: string): Promise<LogEntry | undefined> {
  for (let tries = 0; tries < 100; tries++) {
    const logs = (JSON.parse((await d.wafctl('--json', '--site', host, 'logs', '--per-page', '100')).stdout) as { logs: LogEntry[] }).logs;
    const event = logs.find((l) => l.waf_rule_id === 'engine-budget' && l.uri === uri);
    if (event) return event;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

describe('engine time budget through the daemon, one worker, default budget (40 ms)', () => {
  let d: E2eDaemon;
  let edge: number;
  beforeAll(async () => {
    ({ d, edge } = await startDaemon(['--workers', '1']));
    await addSite(d, edge, 'closed.example.test');
    await addSite(d, edge, 'open.example.test', ['--on-engine-error', 'open']);
    await addSite(d, edge, 'detect.example.test', ['--mode', 'detect']);
  }, 180_000);

  it('refused with the block page and an engine-budget event, nothing forwarded; the connection serves the next request', async () => {
    const host = 'closed.example.test';
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await send(edge, agent, host, 'GET', '/?warm=1')).status).toBe(200);
    const slow = await send(edge, agent, host, 'POST', '/comment-closed', pipes(65536));
    expect(slow.status).toBe(403);
    expect(slow.requestId).toBeTruthy();
    expect(slow.body).toContain(slow.requestId!);
    expect(slow.body).not.toMatch(/932100|budget|EngineBudget/); // nothing internal in the page
    expect(reachedOrigin('/comment-closed')).toEqual([]);
    const next = await send(edge, agent, host, 'GET', '/?page=2');
    expect(next).toMatchObject({ status: 200, body: 'origin ok', reused: true });
    agent.destroy();
    expect(await budgetEvent(d, host, '/comment-closed')).toMatchObject({ group: 'edge', host });
    // The reason is in the daemon log for the operator (not in the page): the budget and the rule.
    expect(budgetLines(d).join('\n')).toMatch(new RegExp(`request ${slow.requestId} refused: engine time budget of 40 ms exceeded .* at rule \\d+`));
  });

  it('on_engine_error open does not open the budget: the request is still refused, never forwarded uninspected', async () => {
    const host = 'open.example.test';
    const agent = new Agent({ keepAlive: false });
    const slow = await send(edge, agent, host, 'POST', '/comment-open', pipes(65536));
    expect(slow.status).toBe(403);
    expect(reachedOrigin('/comment-open')).toEqual([]);
    expect(await budgetEvent(d, host, '/comment-open')).toMatchObject({ group: 'edge', host });
  });

  it('a site in detect mode logs it and forwards it, as it does every block', async () => {
    const host = 'detect.example.test';
    const agent = new Agent({ keepAlive: false });
    const body = pipes(65536);
    const slow = await send(edge, agent, host, 'POST', '/comment-detect', body);
    expect(slow).toMatchObject({ status: 200, body: 'origin ok' });
    expect(reachedOrigin('/comment-detect')).toEqual([{ method: 'POST', url: '/comment-detect', bytes: body.length }]);
    expect(await budgetEvent(d, host, '/comment-detect')).toMatchObject({ group: 'edge', host });
  });
});

describe('engine time budget through the daemon, two workers', () => {
  it('--waf-time-budget-ms reaches the workers: 0 lets a slow request through, the default refuses it', async () => {
    const off = await startDaemon(['--workers', '2', '--waf-time-budget-ms', '0']);
    const on = await startDaemon(['--workers', '2']);
    await addSite(off.d, off.edge, 'two.example.test');
    await addSite(on.d, on.edge, 'two.example.test');
    const agent = new Agent({ keepAlive: false });
    const body = pipes(8192);
    expect((await send(off.edge, agent, 'two.example.test', 'POST', '/comment-off', body)).status).toBe(200);
    expect((await send(on.edge, agent, 'two.example.test', 'POST', '/comment-on', body)).status).toBe(403);
    // A worker's console is not connected: its report reaches the primary's daemon log.
    let lines: string[] = [];
    for (let tries = 0; tries < 50 && lines.length === 0; tries++) {
      lines = budgetLines(on.d);
      if (lines.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(lines.join('\n')).toMatch(/"worker":\d+.*engine time budget of 40 ms exceeded/);
  }, 300_000);
});
