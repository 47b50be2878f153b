import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import tls from 'node:tls';
import { statusesOf } from './hardening/raw-client.js';

// Raw sockets for the upgrade tests: a client that talks to the edge over TCP or TLS byte by byte,
// a WebSocket origin written for the test (101 with Sec-WebSocket-Accept, echoes text frames, and
// records what it received before its 101), and WebSocket frame helpers.

export interface Transport {
  name: 'http' | 'https';
  port: number;
  /** CA (the site's self-signed certificate) for https. */
  ca?: string;
}

export function connect(t: Transport, servername = 'example.test'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = t.name === 'https'
      ? tls.connect({ host: '127.0.0.1', port: t.port, servername, ca: t.ca }, () => resolve(socket))
      : net.connect(t.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

export interface Conversation {
  socket: net.Socket;
  /** Everything the edge sent so far (latin1). */
  text(): string;
  /** Resolves once the received text satisfies `ready`. */
  until(ready: (text: string) => boolean): Promise<string>;
  /** Resolves with everything received once the edge closed the connection. */
  closed: Promise<{ text: string; statuses: number[] }>;
}

/** Opens a connection and writes `first`; the caller waits on what it needs. */
export async function converse(t: Transport, first: string | Buffer, servername?: string): Promise<Conversation> {
  const socket = await connect(t, servername);
  let received = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (d: Buffer) => { received += d.toString('latin1'); for (const w of waiters.splice(0)) w(); });
  socket.on('error', () => {});
  const closed = new Promise<{ text: string; statuses: number[] }>((resolve) => socket.once('close', () => {
    for (const w of waiters.splice(0)) w();
    resolve({ text: received, statuses: statusesOf(received) });
  }));
  const until = (ready: (text: string) => boolean) => new Promise<string>((resolve, reject) => {
    const check = () => {
      if (ready(received)) resolve(received);
      else if (socket.destroyed) reject(new Error(`connection closed; received: ${JSON.stringify(received)}`));
      else waiters.push(check);
    };
    check();
  });
  socket.write(first);
  return { socket, text: () => received, until, closed };
}

/** A masked client text frame (payload under 126 bytes). */
export function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([0x11, 0x22, 0x33, 0x44]);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]);
}

/** The text of the first unmasked server frame after the 101 head in `text`, or null while incomplete. */
export function echoedText(text: string): string | null {
  const at = text.indexOf('\r\n\r\n');
  if (at === -1) return null;
  const frame = Buffer.from(text.slice(at + 4), 'latin1');
  if (frame.length < 2 || frame.length < 2 + (frame[1] & 0x7f)) return null;
  return frame.subarray(2, 2 + (frame[1] & 0x7f)).toString();
}

export const WS_KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
export const WS_ACCEPT = 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=';

export interface WebSocketOrigin {
  url: string;
  /**
   * Upgrade heads received, with the bytes that came with them (must be none: nothing before the
   * 101), and a promise that settles when that tunnel's origin connection has closed.
   */
  upgrades: Array<{ url: string; headers: http.IncomingHttpHeaders; earlyBytes: number; closed: Promise<void> }>;
  /** Ordinary (non-upgrade) requests received. */
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  openTunnels(): number;
  close(): Promise<void>;
}

/** A WebSocket origin: switches any upgrade request to 'websocket' (101) and echoes text frames. */
export async function startWebSocketOrigin(): Promise<WebSocketOrigin> {
  const tunnels = new Set<net.Socket>();
  const origin = { upgrades: [], requests: [] } as unknown as WebSocketOrigin;
  const server = http.createServer((req, res) => {
    origin.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.end(`plain answer to ${req.method} ${req.url}`));
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    tunnels.add(socket);
    const closed = new Promise<void>((resolve) => socket.once('close', () => { tunnels.delete(socket); resolve(); }));
    origin.upgrades.push({ url: req.url ?? '', headers: req.headers, earlyBytes: head.length, closed });
    socket.on('error', () => {});
    // As WebSocket servers do: the peer's FIN is answered with ours.
    socket.on('end', () => socket.end());
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key'] ?? ''}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    let buf = head;
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 6) {
        const len = buf[1] & 0x7f;
        if (buf.length < 6 + len) return;
        const mask = buf.subarray(2, 6);
        const payload = Buffer.from(buf.subarray(6, 6 + len).map((b, i) => b ^ mask[i % 4]));
        const opcode = buf[0] & 0x0f;
        buf = buf.subarray(6 + len);
        if (opcode === 8) { socket.end(Buffer.from([0x88, 0])); return; }
        if (opcode === 1) socket.write(Buffer.concat([Buffer.from([0x81, payload.length]), payload]));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  origin.openTunnels = () => tunnels.size;
  origin.close = () => new Promise((r) => { for (const t of tunnels) t.destroy(); server.closeAllConnections(); server.close(() => r()); });
  return origin;
}

export function selfSigned(dir: string, names: string[]): { cert: string; key: string } {
  const key = join(dir, `${names[0]}.key`), cert = join(dir, `${names[0]}.crt`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

/** A WebSocket handshake request head for `path` (GET, HTTP/1.1). */
export function wsHandshake(host: string, path = '/socket', extra = ''): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${WS_KEY}\r\n${extra}\r\n`;
}
