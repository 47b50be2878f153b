// Overload against the real daemon (one worker, so the edge shares its event loop with the API and the
// admin socket): a slow origin and a small configured in-flight bound (WAFCTL_EDGE_MAX_IN_FLIGHT=8).
// A flood of concurrent requests gets 8 served at a time and the rest shed with 503 + Retry-After, and
// the management API and the admin socket keep answering throughout (how fast: bench/overload).
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from '../e2e/daemon-harness.js';

interface Status { api_url: string; ca_file: string; admin_socket: string; pid: number; ports: { edge: number } }

let d: E2eDaemon;
let status: Status;
let key: string;
let origin: http.Server;
let originSeen = 0;

async function json<T>(...args: string[]): Promise<T> {
  const result = await d.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function edgeGet(agent: http.Agent, path: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: status.ports.edge, path, agent, headers: { host: 'flood.example.test' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

function timed(fn: () => Promise<number>): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  return fn().then((s) => ({ ms: performance.now() - start, status: s }));
}

beforeAll(async () => {
  origin = http.createServer((req, res) => { originSeen++; req.resume(); setTimeout(() => res.end('slow origin'), 1_500); });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  d = await newSandbox();
  d.box.env.WAFCTL_EDGE_MAX_IN_FLIGHT = '8';
  // Only the in-flight signal here (a busy test machine could also trip the event-loop one).
  d.box.env.WAFCTL_EDGE_SHED_LOOP_DELAY_MS = '0';
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  status = await json<Status>('daemon', 'status');
  key = (await json<{ api_key: string }>('site', 'add', 'flood.example.test', '--origin', `http://127.0.0.1:${(origin.address() as AddressInfo).port}`)).api_key;
}, 180_000);

afterAll(async () => {
  await stopAll();
  origin.closeAllConnections();
  await new Promise<void>((r) => origin.close(() => r()));
}, 60_000);

describe('edge overload, real daemon', { timeout: 120_000 }, () => {
  it('sheds past the in-flight bound with 503 + Retry-After while the API and the admin socket keep answering', async () => {
    const ca = await readFile(status.ca_file, 'utf8');
    const apiAgent = new Agent({ ca, keepAlive: false });
    const api = () => new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`${status.api_url}/api/v1/connect`, { agent: apiAgent, headers: { 'x-service-key': key } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode!)); });
      req.on('error', reject);
      req.end();
    });
    const admin = () => new Promise<number>((resolve, reject) => {
      const req = http.request({ socketPath: status.admin_socket, path: '/admin/status' }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode!)); });
      req.on('error', reject);
      req.end();
    });
    // The site is live once the edge has its snapshot.
    for (let i = 0; i < 50 && (await edgeGet(new http.Agent(), '/ready')).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
    const seenBefore = originSeen;
    // What the API and admin socket take on this machine right now, without a flood (a shared test
    // machine can be slow on its own; the flood must not add a second on top of that).
    const quiet: number[] = [];
    for (let i = 0; i < 4; i++) quiet.push((await timed(api)).ms, (await timed(admin)).ms);

    const floodAgent = new http.Agent({ keepAlive: true, maxSockets: 300 });
    const flood = Promise.all(Array.from({ length: 300 }, (_, i) => edgeGet(floodAgent, `/flood/${i}`)));
    const probes: Array<{ ms: number; status: number }> = [];
    const probing = (async () => {
      for (let i = 0; i < 6; i++) {
        probes.push(await timed(api), await timed(admin));
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const [replies] = await Promise.all([flood, probing]);
    floodAgent.destroy();

    const served = replies.filter((r) => r.status === 200).length;
    const shed = replies.filter((r) => r.status === 503);
    expect(served + shed.length).toBe(300);
    // 8 slots, a 1.5 s origin: only the first 8 (and a few that arrive as slots free up) are served.
    expect(served).toBeGreaterThanOrEqual(8);
    expect(served).toBeLessThan(60);
    expect(shed.every((r) => r.retryAfter === '1')).toBe(true);
    expect(originSeen - seenBefore).toBe(served);
    // The API and the admin socket kept answering through the flood. How fast is a timing claim,
    // measured by bench/overload (every 100 ms at twice the edge's capacity), not asserted here:
    // on a shared box a duration says more about the neighbours than about the daemon.
    expect(probes.map((p) => p.status)).toEqual(new Array(12).fill(200));
    const during = probes.map((p) => p.ms).sort((a, b) => a - b);
    console.log(`edge overload: API/admin during the flood median ${during[6].toFixed(0)} ms, worst ${during.at(-1)!.toFixed(0)} ms (quiet: worst ${Math.max(...quiet).toFixed(0)} ms)`);

    // Over: the edge serves again.
    expect((await edgeGet(new http.Agent(), '/after')).status).toBe(200);
  });
});
