import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Edge, type EdgeOptions } from '../../../daemon/proxy/edge.js';
import type { AccessEntry, EventSink, WafEvent } from '../../../daemon/proxy/events.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import type { SiteInput } from '../../../daemon/proxy/snapshot-input.js';

// Real sockets everywhere: a real origin (node:http) and a real edge, both on loopback.

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Origin {
  url: string;
  port: number;
  seen: SeenRequest[];
  /** Response delay in ms (for 504 tests). */
  delayMs: number;
  close(): Promise<void>;
}

/** An origin that answers 200 with a JSON echo of the request, and echoes WebSocket text frames. */
export async function startOrigin(): Promise<Origin> {
  const seen: SeenRequest[] = [];
  const origin = { seen, delayMs: 0 } as Origin;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(entry);
      const send = () => {
        const body = JSON.stringify(entry);
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'x-origin': 'yes' });
        res.end(body);
      };
      if (origin.delayMs > 0) setTimeout(send, origin.delayMs); else send();
    });
  });
  const tunnels = new Set<Duplex>();
  server.on('upgrade', (req, socket, head) => { tunnels.add(socket); acceptWebSocket(req, socket, head); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  origin.port = port;
  origin.url = `http://127.0.0.1:${port}`;
  origin.close = () => new Promise((r) => { for (const t of tunnels) t.destroy(); server.closeAllConnections(); server.close(() => r()); });
  return origin;
}

function acceptWebSocket(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const key = req.headers['sec-websocket-key'] ?? '';
  const accept = createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nX-Seen-Forwarded-For: ${req.headers['x-forwarded-for']}\r\n\r\n`);
  let buf = head;
  socket.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    // Minimal frame reader: small masked frames from the client, text (1) echoed, close (8) closes.
    while (buf.length >= 6) {
      const opcode = buf[0] & 0x0f;
      const len = buf[1] & 0x7f;
      if (len > 125 || buf.length < 6 + len) return;
      const mask = buf.subarray(2, 6);
      const payload = Buffer.from(buf.subarray(6, 6 + len).map((b, i) => b ^ mask[i % 4]));
      buf = buf.subarray(6 + len);
      if (opcode === 8) { socket.end(Buffer.from([0x88, 0])); return; }
      if (opcode === 1) socket.write(Buffer.concat([Buffer.from([0x81, payload.length]), payload]));
    }
  });
  socket.on('error', () => {});
  socket.on('end', () => socket.end());
}

export class RecordingSink implements EventSink {
  readonly wafEvents: WafEvent[] = [];
  readonly accessEntries: AccessEntry[] = [];
  private waiters: Array<() => void> = [];
  waf(e: WafEvent): void { this.wafEvents.push(e); this.wake(); }
  access(e: AccessEntry): void { this.accessEntries.push(e); this.wake(); }

  /** The first access entry that matches, once it is written (waits for the event, no deadline of its own). */
  accessEntry(match: (e: AccessEntry) => boolean): Promise<AccessEntry> {
    return this.until(() => this.accessEntries.find(match));
  }

  /** The first WAF event that matches, once it is written. */
  wafEvent(match: (e: WafEvent) => boolean): Promise<WafEvent> {
    return this.until(() => this.wafEvents.find(match));
  }

  private until<T>(find: () => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const check = () => {
        const found = find();
        if (found === undefined) this.waiters.push(check); else resolve(found);
      };
      check();
    });
  }

  private wake(): void {
    for (const check of this.waiters.splice(0)) check();
  }
}

export interface RunningEdge {
  edge: Edge;
  port: number;
  sink: RecordingSink;
  close(): Promise<void>;
}

export async function startEdge(sites: SiteInput[], options: Partial<EdgeOptions> = {}): Promise<RunningEdge> {
  const sink = new RecordingSink();
  const edge = new Edge({ snapshot: buildEdgeSnapshot({ sites }), sink, ...options });
  const port = await edge.listenHttp({ port: 0, host: '::' });
  return { edge, port, sink, close: () => edge.close() };
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RequestSpec {
  port: number;
  host?: string;
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Address to connect to (default 127.0.0.1). */
  address?: string;
  agent?: http.Agent | false;
}

/** One real HTTP request; rejects with the socket error (ECONNRESET for drop). */
export function request(spec: RequestSpec): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: spec.address ?? '127.0.0.1', port: spec.port, path: spec.path ?? '/', method: spec.method ?? 'GET',
      headers: { host: spec.host ?? 'example.test', ...spec.headers }, agent: spec.agent ?? false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

export function site(origin: Origin, extra: Partial<SiteInput> = {}): SiteInput {
  return { id: 1, domain: 'example.test', origin: origin.url, ...extra };
}

/** A minimal WebSocket client (node:http upgrade, one masked text frame out, one frame back). */
export function webSocketEcho(port: number, host: string, text: string, path = '/socket'): Promise<{ reply: string; upgradeHeaders: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path, agent: false,
      headers: { host, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    });
    req.on('upgrade', (res, socket, head) => {
      const payload = Buffer.from(text);
      const mask = Buffer.from([1, 2, 3, 4]);
      socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]));
      let buf = head;
      socket.on('data', (c: Buffer) => {
        buf = Buffer.concat([buf, c]);
        if (buf.length >= 2 && buf.length >= 2 + (buf[1] & 0x7f)) {
          resolve({ reply: buf.subarray(2, 2 + (buf[1] & 0x7f)).toString(), upgradeHeaders: res.headers });
          socket.destroy();
        }
      });
      socket.on('error', reject);
    });
    req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}
