// A real daemon (one worker, ports of its own) with sites in front of one plain origin: the setup
// of the e2e tests that send requests through the edge and then ask the CLI about them.
import { createServer, type Server } from 'node:http';
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
