import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { EdgeFactory, EdgeService } from './edge-service.js';

// Stand-in for the edge until the reverse proxy (daemon/proxy/, issue 7) replaces it: binds the edge
// HTTP and HTTPS ports, so `daemon start` proves they are free, and answers every request with a
// 503 page. Replace this file's factory in app.ts; nothing else depends on it.

const PAGE = '<!doctype html><title>503 edge not ready</title><h1>503 edge not ready</h1><p>The wafctl edge proxy is not running yet.</p>\n';

function answer(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(PAGE), 'retry-after': '60' });
  res.end(PAGE);
}

export const createEdgePlaceholder: EdgeFactory = ({ tls }): EdgeService => {
  const http = createHttpServer(answer);
  const https = createHttpsServer({ cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' }, answer);
  return {
    async listen(host, ports) {
      return { edge: await bind(http, ports.edge, host), edgeTls: await bind(https, ports.edgeTls, host) };
    },
    async close(drainMs) {
      await Promise.all([http, https].map((server) => closeServer(server, drainMs)));
    },
    load: () => null,
  };
};

async function bind(server: Server, port: number, host: string): Promise<number> {
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => { throw error; })]);
  return (server.address() as { port: number }).port;
}

async function closeServer(server: Server, drainMs: number): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), drainMs);
  await closed;
  clearTimeout(force);
}
