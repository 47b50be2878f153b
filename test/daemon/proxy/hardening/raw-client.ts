import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { InspectedRequest, RequestInspector } from '../../../../daemon/proxy/inspector.js';

// Raw sockets for the protocol tests: what a hostile client writes byte by byte, and an origin
// that records every request head and every byte it received, so "never forwarded" is a count.

export interface RawReply {
  /** Everything the server sent. */
  text: string;
  /** Status codes of the responses in `text`, in order. */
  statuses: number[];
  /** The server closed (or reset) the connection before the wait ended. */
  closedByServer: boolean;
  /** ms from the first write to the close (or to the end of the wait). */
  elapsedMs: number;
  /** How many of the chunks were written before the exchange ended. */
  chunksWritten: number;
}

/** Writes `chunks` (with `gapMs` between them), then waits up to `waitMs` (default 20 s) for the server to answer and close. */
export function rawExchange(port: number, chunks: Array<string | Buffer> | string, options: { gapMs?: number; waitMs?: number } = {}): Promise<RawReply> {
  const parts = typeof chunks === 'string' ? [chunks] : chunks;
  const waitMs = options.waitMs ?? 20_000; // an upper bound only: a server that answers and closes ends it at once
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, statuses: statusesOf(text), closedByServer, elapsedMs: Date.now() - started, chunksWritten: i });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => { text += d; });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    let i = 0;
    const writeNext = () => {
      if (done || i >= parts.length) return;
      socket.write(parts[i++]);
      if (i < parts.length) setTimeout(writeNext, options.gapMs ?? 0);
    };
    socket.once('connect', writeNext);
  });
}

/** Writes `bytes`, ends its side of the connection (FIN), and reads until the server closes. */
export function rawExchangeHalfClosed(port: number, bytes: string | Buffer): Promise<{ text: string; statuses: number[] }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => { text += d; });
    socket.on('close', () => resolve({ text, statuses: statusesOf(text) }));
    socket.on('error', () => {});
    socket.once('connect', () => socket.end(bytes));
  });
}

export function statusesOf(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
}

export interface RecordingOrigin {
  url: string;
  /** Request heads as they arrived (before any body). */
  heads: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  /** Complete requests with their bodies. */
  complete: Array<{ url: string; body: Buffer }>;
  /** Bytes received on every connection so far. */
  bytesReceived(): number;
  /** Response delay (ms) for the next requests. */
  delayMs: number;
  /** When set, answers wait for it (after the delay): a slow origin that the test releases. */
  hold: Promise<void> | null;
  close(): Promise<void>;
}

export async function startRecordingOrigin(): Promise<RecordingOrigin> {
  const sockets = new Set<net.Socket>();
  let closedBytes = 0;
  const origin = { heads: [], complete: [], delayMs: 0, hold: null } as unknown as RecordingOrigin;
  const server = http.createServer((req, res) => {
    origin.heads.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      origin.complete.push({ url: req.url ?? '', body });
      const send = () => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(`origin saw ${req.method} ${req.url} ${body.length}`); };
      const hold = origin.hold;
      const answer = hold ? () => void hold.then(send) : send;
      if (origin.delayMs > 0) setTimeout(answer, origin.delayMs); else answer();
    });
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => { closedBytes += s.bytesRead; sockets.delete(s); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin.bytesReceived = () => closedBytes + [...sockets].reduce((n, s) => n + s.bytesRead, 0);
  origin.close = () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });
  return origin;
}

/** Like the engine adapter: buffers every body; blocks paths containing /blocked; throws on /boom. */
export class ScriptedInspector implements RequestInspector {
  readonly seen: InspectedRequest[] = [];
  wantsBody(): boolean { return true; }
  inspect(request: InspectedRequest) {
    this.seen.push(request);
    if (request.uri.includes('/boom-async')) return Promise.reject(new Error('engine exploded (async)'));
    if (request.uri.includes('/boom')) throw new Error('engine exploded');
    if (request.uri.includes('/blocked')) {
      return { block: true, matches: [{ ruleId: '999', group: 'crs', file: 'test.conf', msg: 'blocked by the test', severity: 'CRITICAL' as const }] };
    }
    return null;
  }
}
