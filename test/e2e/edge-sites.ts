// A real daemon (one worker, ports of its own) with sites in front of one plain origin: the setup
// of the e2e tests that send requests through the edge and then ask the CLI about them.
import { createServer, request, type Server } from 'node:http';
import { expect } from 'vitest';
import { newSandbox, type E2eDaemon } from './daemon-harness.js';

export interface EdgeSites {
  d: E2eDaemon;
  /** The edge's HTTP port. */
  edge: number;
  origin: Server;
}

export async function startEdgeSites(hosts: readonly string[]): Promise<EdgeSites> {
  const origin = createServer((_req, res) => res.end('origin ok'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const originPort = (origin.address() as { port: number }).port;
  const d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '1');
  expect(start.code, start.stderr).toBe(0);
  const edge = (JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number } }).ports.edge;
  for (const host of hosts) expect((await d.wafctl('site', 'add', host, '--origin', `http://127.0.0.1:${originPort}`)).code).toBe(0);
  return { d, edge, origin };
}

/** The status the edge on `port` answers a browser-like GET of `path` for `host`. */
export function edgeStatus(port: number, host: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e', accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A settings change compiles its rule set in the background: waits for the state, by bounded tries
 *  (the deadline is the count, not a clock). */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never happened: ${what}`);
}
