import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// The origin behind the edge in the CRS conformance suite answers like the reference setup's
// origin (CRS CI's "crs-anchor origin" behind Apache): GET/HEAD/OPTIONS on "/" and anything on
// "/post" -> 200, other methods on "/" -> 405, any other path -> 404. Only `status` checks
// of the tests see this; the WAF verdicts never depend on it.

export function originStatus(method: string, path: string): number {
  if (path === '/post') return 200;
  if (path === '/' || path === '') {
    return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 200 : 405;
  }
  return 404;
}

export interface EmulatedOrigin {
  url: string;
  close(): Promise<void>;
}

/** A real origin on loopback that reads each request to its end and answers with originStatus. */
export async function startEmulatedOrigin(): Promise<EmulatedOrigin> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = originStatus(req.method ?? '', (req.url ?? '').split('?')[0]);
      res.writeHead(status, { 'Content-Type': 'text/plain' });
      res.end(status === 200 ? 'ok\n' : `${status}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
