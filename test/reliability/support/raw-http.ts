// HTTP/1.1 spoken byte by byte over a real socket (TLS to the API port, or the admin unix socket),
// so a fuzz case can send what no well-behaved client library would: invalid UTF-8 in headers and
// bodies, duplicate or odd headers, any method and target. One request per connection
// (`Connection: close`): a refused request can never leave state behind for the next case.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export type Endpoint = { kind: 'tls'; host: string; port: number; ca: string } | { kind: 'unix'; path: string };

export interface RawRequest {
  method: string;
  target: string;
  headers: Array<[string, string | Buffer]>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** The request's bytes, with Host, Content-Length and Connection: close added unless present. */
export function encodeRequest(request: RawRequest): Buffer {
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const names = new Set(request.headers.map(([name]) => name.toLowerCase()));
  const headers = [...request.headers];
  if (!names.has('host')) headers.unshift(['Host', 'localhost']);
  if (!names.has('content-length') && !names.has('transfer-encoding') && body.length > 0) headers.push(['Content-Length', String(body.length)]);
  if (!names.has('connection')) headers.push(['Connection', 'close']);
  const parts: Buffer[] = [Buffer.from(`${request.method} ${request.target} HTTP/1.1\r\n`, 'latin1')];
  for (const [name, value] of headers) {
    parts.push(Buffer.from(`${name}: `, 'latin1'), Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8'), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('\r\n'), body);
  return Buffer.concat(parts);
}

/** Sends one request and reads the whole answer (the server closes after it). */
export function exchange(endpoint: Endpoint, request: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket: Socket = endpoint.kind === 'tls'
      ? tlsConnect({ host: endpoint.host, port: endpoint.port, ca: endpoint.ca, servername: 'localhost' })
      : netConnect({ path: endpoint.path });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (parseError) {
        reject(parseError as Error);
      }
    };
    const timer = setTimeout(() => finish(new Error(`no complete answer within ${timeoutMs} ms to ${request.method} ${request.target}`)), timeoutMs);
    // write(), not end(): node's HTTP server aborts a request whose client half-closes before the answer.
    socket.once(endpoint.kind === 'tls' ? 'secureConnect' : 'connect', () => socket.write(encodeRequest(request)));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (isComplete(Buffer.concat(chunks))) finish(null);
    });
    socket.once('end', () => finish(null));
    // A reset after the whole answer arrived is the server closing a connection we still wrote to.
    socket.once('error', (error) => (chunks.length > 0 && isComplete(Buffer.concat(chunks)) ? finish(null) : finish(error)));
  });
}

function headerEnd(bytes: Buffer): number {
  return bytes.indexOf('\r\n\r\n');
}

/** Drops interim 1xx answers (100 Continue) that come before the final response. */
function finalResponse(bytes: Buffer): Buffer {
  while (/^HTTP\/1\.[01] 1\d\d /.test(bytes.subarray(0, 13).toString('latin1'))) {
    const end = headerEnd(bytes);
    if (end < 0) return Buffer.alloc(0);
    bytes = bytes.subarray(end + 4);
  }
  return bytes;
}

function isComplete(all: Buffer): boolean {
  const bytes = finalResponse(all);
  const end = headerEnd(bytes);
  if (end < 0) return false;
  const head = parseHead(bytes.subarray(0, end).toString('latin1'));
  const length = head.headers['content-length'];
  if (length !== undefined) return bytes.length - (end + 4) >= Number(length);
  if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) return bytes.subarray(end + 4).includes('\r\n0\r\n\r\n') || bytes.subarray(end + 4, end + 9).toString() === '0\r\n\r\n';
  return false; // read until the server closes
}

function parseHead(text: string): { status: number; headers: Record<string, string> } {
  const [statusLine, ...lines] = text.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) throw new Error(`not an HTTP response: ${JSON.stringify(statusLine.slice(0, 80))}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(match[1]), headers };
}

function parseResponse(all: Buffer): RawResponse {
  const bytes = finalResponse(all);
  const end = headerEnd(bytes);
  if (end < 0) throw new Error(`the connection closed before a complete response head (${bytes.length} bytes)`);
  const { status, headers } = parseHead(bytes.subarray(0, end).toString('latin1'));
  let body = bytes.subarray(end + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  let json: unknown;
  try {
    json = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, body, json };
}

function dechunk(bytes: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}
