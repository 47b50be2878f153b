// "502 with no reason in the log": when the origin refuses the connection, resets it, or answers
// something that is not HTTP, the client gets a plain 502 page, and the request's access entry
// carries why (`upstream_error`), and daemon.log has a line naming the site, origin and reason.
// A real daemon with two edge workers (so the entry crosses the cluster channel), real origins on
// loopback sockets, the CLI as a real process.
import { readdir, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

let d: E2eDaemon;
let edge: number;
const servers: Server[] = [];

/** A TCP origin that does `onRequest` to every connection once the first bytes of a request are in. */
async function rawOrigin(onRequest: (socket: import('node:net').Socket) => void): Promise<number> {
  const server = createServer((socket) => socket.once('data', () => onRequest(socket)));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function get(host: string): Promise<{ status: number; requestId: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: edge, path: '/page', headers: { host, connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The stored access entry of a request, once the edge has written it. */
async function accessEntry(requestId: string): Promise<Record<string, unknown>> {
  const dir = join(d.box.dataDir, 'events');
  for (let tries = 0; tries < 200; tries++) {
    for (const name of (await readdir(dir)).filter((n) => n.startsWith('access-'))) {
      for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) {
        if (line.includes(requestId)) return JSON.parse(line) as Record<string, unknown>;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no access entry for request ${requestId}`);
}

beforeAll(async () => {
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)), '--workers', '2');
  expect(start.code, start.stderr).toBe(0);
  edge = (JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number } }).ports.edge;
  const origins: Array<[string, number]> = [
    ['refused.test', await closedPort()],
    ['reset.test', await rawOrigin((socket) => socket.resetAndDestroy())],
    ['garbage.test', await rawOrigin((socket) => socket.end('this is not HTTP\r\n\r\n'))],
    ['ok.test', await rawOrigin((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'))],
  ];
  for (const [host, port] of origins) {
    const added = await d.wafctl('site', 'add', host, '--origin', `http://127.0.0.1:${port}`, '--no-login');
    expect(added.code, added.stderr).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await stopAll();
  for (const server of servers) server.close();
}, 60_000);

describe('an origin that fails', { timeout: 60_000 }, () => {
  it.each([
    ['refused.test', 'ECONNREFUSED'],
    ['reset.test', 'ECONNRESET'],
    ['garbage.test', /^HTTPParserError: Response does not match the HTTP\/1\.1 protocol/],
  ])('%s: 502 to the client, the reason in the access entry and in daemon.log', async (host, reason) => {
    const answer = await get(host);
    expect(answer.status).toBe(502);
    expect(answer.body).not.toMatch(/ECONN|HTTPParser/);
    const entry = await accessEntry(answer.requestId);
    expect(entry).toMatchObject({ host, status: 502, request_id: answer.requestId });
    expect(entry.upstream_error).toEqual(typeof reason === 'string' ? reason : expect.stringMatching(reason));
    // The log line is written by the worker that served the request, through the primary: wait for it.
    const logLine = `of site ${host} failed: ${String(entry.upstream_error)}, answered 502 to request ${answer.requestId}`;
    const log = () => readFile(join(d.box.dataDir, 'daemon.log'), 'utf8');
    for (let tries = 0; tries < 100 && !(await log()).includes(logLine); tries++) await new Promise((r) => setTimeout(r, 100));
    expect(await log()).toContain(logLine);
  });

  it('ok.test: a response from the origin has no upstream_error', async () => {
    const answer = await get('ok.test');
    expect(answer.status).toBe(200);
    const entry = await accessEntry(answer.requestId);
    expect(entry).toMatchObject({ host: 'ok.test', status: 200 });
    expect('upstream_error' in entry).toBe(false);
  });
});
