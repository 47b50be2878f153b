import net from 'node:net';

// The origin behind the proxy under test, over a real socket: it reads HTTP/1.1 the way origins
// that request smuggling aims at do (PHP/Apache, nginx without a WebSocket location): request
// after request on a connection, an `Upgrade` field ignored, chunked before Content-Length,
// trailer fields kept. node:http cannot stand in for these: its parser treats every byte after an
// upgrade head as the new protocol and never parses it, so a proxy that pipes such bytes would
// look safe. Every request it parsed is recorded whole (method, target, fields, body bytes); bytes
// it could not parse are recorded too (method ''), so nothing the proxy sent goes unseen.
// Answers carry `X-Origin-Answer`, so a client tells them from the proxy's own pages.

export interface OriginRecord {
  /** The request's `X-Probe` value ('' when it has none). */
  mark: string;
  /** The probe running when the request arrived (attribution of a request without a mark). */
  during: string;
  method: string;
  target: string;
  /** [lower-case name, value] in arrival order (trailer fields last), values as latin1. */
  headers: Array<[string, string]>;
  body: Buffer;
}

export interface RecordingOrigin {
  url: string;
  port: number;
  records: OriginRecord[];
  /** The probe now running (set by the runner). */
  current: string;
  close(): Promise<void>;
}

export const ORIGIN_ANSWER = 'x-origin-answer';
const ANSWER = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n${ORIGIN_ANSWER}: 1\r\nContent-Length: 9\r\n\r\norigin ok`, 'latin1');
/** A HEAD answer has the same head and no body. */
const HEAD_ANSWER = ANSWER.subarray(0, ANSWER.indexOf('\r\n\r\n') + 4);
const CONTINUE = Buffer.from('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');

interface Head { method: string; target: string; version: string; headers: Array<[string, string]>; bodyStart: number }

export async function startRecordingOrigin(): Promise<RecordingOrigin> {
  const origin = { records: [], current: '' } as unknown as RecordingOrigin;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    let continued = false;
    const record = (r: Omit<OriginRecord, 'mark' | 'during'>) =>
      origin.records.push({ ...r, mark: r.headers.find(([n]) => n === 'x-probe')?.[1] ?? '', during: origin.current });
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const head = parseHead(buf);
        if (head === 'incomplete') return;
        if (head === 'invalid') { record({ method: '', target: '', headers: [], body: buf }); buf = Buffer.alloc(0); socket.end(); return; }
        const field = (name: string) => head.headers.filter(([n]) => n === name).map(([, v]) => v);
        if (!continued && field('expect').some((v) => v.toLowerCase() === '100-continue')) { socket.write(CONTINUE); continued = true; }
        const body = readBody(buf, head, field);
        if (body === 'incomplete') return;
        if (body === 'invalid') { record({ method: '', target: '', headers: [], body: buf }); buf = Buffer.alloc(0); socket.end(); return; }
        buf = buf.subarray(body.end);
        continued = false;
        record({ method: head.method, target: head.target, headers: [...head.headers, ...body.trailers], body: body.bytes });
        const connection = field('connection').join(',').toLowerCase();
        const close = connection.includes('close') || (head.version === 'HTTP/1.0' && !connection.includes('keep-alive'));
        const answer = head.method === 'HEAD' ? HEAD_ANSWER : ANSWER;
        if (close) { socket.end(answer); return; }
        socket.write(answer);
      }
    });
    socket.on('end', () => {
      if (buf.length > 0) record({ method: '', target: '', headers: [], body: buf });
      socket.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin.port = (server.address() as net.AddressInfo).port;
  origin.url = `http://127.0.0.1:${origin.port}`;
  origin.close = () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); });
  return origin;
}

function parseHead(buf: Buffer): Head | 'incomplete' | 'invalid' {
  const end = buf.indexOf('\r\n\r\n');
  if (end === -1) return buf.length > 256 * 1024 ? 'invalid' : 'incomplete';
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) (HTTP\/1\.[01])$/.exec(lines[0]);
  if (!line) return 'invalid';
  const headers: Array<[string, string]> = [];
  for (const l of lines.slice(1)) {
    const colon = l.indexOf(':');
    if (colon <= 0) return 'invalid';
    headers.push([l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim()]);
  }
  return { method: line[1], target: line[2], version: line[3], headers, bodyStart: end + 4 };
}

type Body = { bytes: Buffer; trailers: Array<[string, string]>; end: number };

function readBody(buf: Buffer, head: Head, field: (name: string) => string[]): Body | 'incomplete' | 'invalid' {
  const codings = field('transfer-encoding').join(',').toLowerCase().split(',').map((s) => s.trim()).filter(Boolean);
  if (codings.at(-1) === 'chunked') return readChunked(buf, head.bodyStart);
  const length = field('content-length')[0];
  if (length === undefined) return { bytes: Buffer.alloc(0), trailers: [], end: head.bodyStart };
  if (!/^\d+$/.test(length)) return 'invalid';
  const end = head.bodyStart + Number(length);
  return buf.length < end ? 'incomplete' : { bytes: buf.subarray(head.bodyStart, end), trailers: [], end };
}

function readChunked(buf: Buffer, start: number): Body | 'incomplete' | 'invalid' {
  const chunks: Buffer[] = [];
  let at = start;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol === -1) return 'incomplete';
    const size = /^([0-9a-fA-F]+)(;.*)?$/.exec(buf.subarray(at, eol).toString('latin1'));
    if (!size || size[1].length > 8) return 'invalid';
    const n = parseInt(size[1], 16);
    at = eol + 2;
    if (n === 0) break;
    if (buf.length < at + n + 2) return 'incomplete';
    chunks.push(buf.subarray(at, at + n));
    at += n + 2;
  }
  const trailers: Array<[string, string]> = [];
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol === -1) return 'incomplete';
    const line = buf.subarray(at, eol).toString('latin1');
    at = eol + 2;
    if (line === '') return { bytes: Buffer.concat(chunks), trailers, end: at };
    const colon = line.indexOf(':');
    if (colon > 0) trailers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
  }
}
