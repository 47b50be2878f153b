// A real origin that answers like albedo, the backend CRS 4 CI puts behind the WAF: any request
// -> 200 with an empty body; POST /reflect (and /reflect/) -> the status, headers and body its JSON
// request body asks for (`{"status":..,"headers":{..},"body":"..","encodedBody":"<base64>"}`), so
// the RESPONSE-95x tests can make the origin leak what they test for. A body without a
// Content-Type header gets the one Go's net/http would sniff (harness/go-content-sniff.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatedOrigin } from '../../crs/harness/origin-emulation.js';
import { detectContentType } from './go-content-sniff.js';

interface ReflectionSpec {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  encodedBody?: string;
}

function reflect(raw: Buffer, res: ServerResponse): void {
  let spec: ReflectionSpec;
  try {
    spec = JSON.parse(raw.toString('utf8')) as ReflectionSpec;
  } catch {
    res.writeHead(400).end('Invalid JSON in request body');
    return;
  }
  const status = spec.status ?? 0;
  if ((status > 0 && status < 100) || status >= 600) {
    res.writeHead(400).end(`Invalid status code: ${status}`);
    return;
  }
  const body = spec.body ? Buffer.from(spec.body, 'utf8') : Buffer.from(spec.encodedBody ?? '', 'base64');
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    try {
      res.setHeader(name, value);
    } catch {
      // albedo drops headers whose name or value HTTP does not allow.
    }
  }
  if (body.length > 0 && !res.hasHeader('content-type')) res.setHeader('Content-Type', detectContentType(body));
  res.writeHead(status === 0 ? 200 : status);
  res.end(body);
}

function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const path = (req.url ?? '').split('?')[0];
  if (req.method === 'POST' && (path === '/reflect' || path === '/reflect/')) reflect(body, res);
  else res.writeHead(200).end();
}

export async function startAlbedoOrigin(): Promise<EmulatedOrigin> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
