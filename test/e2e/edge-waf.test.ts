// The product's core path end to end: the real daemon (with the Debian Core Rule Set that .ci/run
// installs) in front of a real origin blocks attacks through the edge, passes benign requests, and
// the blocks show up in `wafctl logs` with their rule ids and groups; in-process and with workers.
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, stopAll, type E2eDaemon } from './daemon-harness.js';

let origin: Server;
let originPort: number;

beforeAll(async () => {
  origin = createServer((_req, res) => res.end('origin ok'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as { port: number }).port;
});
afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: 'shop.example.test', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e', accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Raw bytes to the edge; resolves with what it sent back once it closes the connection. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => { text += d; });
    socket.on('error', () => resolve(text));
    socket.on('close', () => resolve(text));
  });
}

async function daemonWithSite(workers: number): Promise<{ d: E2eDaemon; edge: number }> {
  const d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', String(workers));
  expect(start.code, start.stderr).toBe(0);
  const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number }; crs: { found: boolean } };
  expect(status.crs.found, 'the Core Rule Set is installed (apt-get install modsecurity-crs)').toBe(true);
  expect((await d.wafctl('site', 'add', 'shop.example.test', '--origin', `http://127.0.0.1:${originPort}`)).code).toBe(0);
  return { d, edge: status.ports.edge };
}

describe.each([1, 2])('the edge with the WAF engine, --workers %i', (workers) => {
  let d: E2eDaemon;
  let edge: number;

  beforeAll(async () => {
    ({ d, edge } = await daemonWithSite(workers));
  }, 180_000);

  it('passes benign requests and blocks SQL injection, XSS and WordPress probes', async () => {
    expect(await get(edge, '/')).toBe(200);
    expect(await get(edge, '/?s=hello+world&page=2')).toBe(200);
    expect(await get(edge, '/?id=1%27%20OR%201=1--')).toBe(403);
    expect(await get(edge, '/?q=%3Cscript%3Ealert(1)%3C/script%3E')).toBe(403);
    expect(await get(edge, '/wp-config.php.bak')).toBe(403);
  });

  it('records the blocks as WAF events with rule ids and groups', async () => {
    // Blocks of its own to look for (the test above may not have run, or not first).
    expect(await get(edge, '/?id=1%27%20OR%201=1--')).toBe(403);
    expect(await get(edge, '/wp-config.php.bak')).toBe(403);
    let logs: Array<{ waf_rule_id: string; group: string; uri: string }> = [];
    for (let tries = 0; tries < 50; tries++) {
      logs = (JSON.parse((await d.wafctl('--json', 'logs', '--per-page', '100')).stdout) as { logs: typeof logs }).logs;
      if (logs.some((l) => l.group === 'cms') && logs.some((l) => l.waf_rule_id === '942100')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(logs.find((l) => l.waf_rule_id === '942100')).toMatchObject({ group: 'crs', uri: '/?id=1%27%20OR%201=1--' });
    expect(logs.find((l) => l.group === 'cms')).toMatchObject({ waf_rule_id: '200120', uri: '/wp-config.php.bak' });
    expect(logs.some((l) => l.waf_rule_id === '949110')).toBe(true);
  });

  it('judges what node\'s parser refuses and CONNECT by the site\'s rules, refuses both with a request id, and shows them in `wafctl logs`', async () => {
    // The site is in on mode: CRS's 911100 (method not allowed) blocks both, so the answer is the
    // site's block response (403) instead of the edge's 400 / 405; nothing is forwarded either way.
    const refused = await raw(edge, 'FOO /e2e-parser HTTP/1.1\r\nHost: shop.example.test\r\n\r\n');
    expect(refused).toMatch(/^HTTP\/1\.1 403 [\s\S]*x-request-id: /);
    const connectReply = await raw(edge, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: shop.example.test\r\n\r\n');
    expect(connectReply).toMatch(/^HTTP\/1\.1 403 /);
    let logs: Array<{ waf_rule_id: string; group: string; uri: string }> = [];
    for (let tries = 0; tries < 50; tries++) {
      logs = (JSON.parse((await d.wafctl('--json', 'logs', '--per-page', '100')).stdout) as { logs: typeof logs }).logs;
      if (logs.some((l) => l.waf_rule_id === 'parser-refused') && logs.some((l) => l.waf_rule_id === 'connect-refused') && logs.filter((l) => l.waf_rule_id === '911100').length >= 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(logs.find((l) => l.waf_rule_id === 'parser-refused')).toMatchObject({ group: 'edge', uri: '/e2e-parser' });
    expect(logs.find((l) => l.waf_rule_id === 'connect-refused')).toMatchObject({ group: 'edge', uri: '127.0.0.1:22' });
    expect(logs.find((l) => l.waf_rule_id === '911100' && l.uri === '/e2e-parser')).toMatchObject({ group: 'crs' });
    expect(logs.find((l) => l.waf_rule_id === '911100' && l.uri === '127.0.0.1:22')).toMatchObject({ group: 'crs' });
  });
});
