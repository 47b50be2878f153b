// A small loopback HTTP server that runs every request through a Waf and records the
// ModSecurity-style log line of every logged rule match. The CRS conformance runner drives
// it with raw bytes. Path of a request:
//   1. a TCP front reads the request head and applies the refusals Apache (the reference
//      server) makes before ModSecurity runs (apache-emulation.ts);
//   2. node:http (insecureHTTPParser) parses the request; the engine sees what it parsed;
//   3. when node:http refuses a request Apache accepts (methods llhttp does not know, a
//      request-target not starting with '/'), the raw bytes go through request/raw-http.ts
//      instead, so the WAF still inspects them.
// The edge proxy (daemon/proxy/) replaces this for production traffic.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket, type AddressInfo } from 'node:net';
import type { Waf } from '../waf.js';
import type { EngineRequest } from '../request/model.js';
import type { Interruption } from '../rules/match.js';
import { engineRequestFromNode } from '../request/from-node.js';
import { parseRawHttpRequest } from '../request/raw-http.js';
import { formatModSecurityLogLine } from '../log-line.js';
import { splitRequestTarget } from '../request/uri.js';
import { originStatus } from './origin-emulation.js';
import { apacheVerdict, dropContentLengthIfChunked } from './apache-emulation.js';

export interface HarnessVerdict {
  interruption: Interruption | null;
  status: number;
}

const HEAD_WAIT_MS = 300;

function headEnd(buf: Buffer): number {
  const crlf = buf.indexOf('\r\n\r\n');
  return crlf >= 0 ? crlf : buf.indexOf('\n\n');
}

export class EngineHarness {
  /** Log lines of every request so far, in order. */
  readonly lines: string[] = [];
  private readonly http: Server;
  private readonly front: NetServer;

  constructor(private readonly waf: Waf) {
    this.http = createHttpServer({ insecureHTTPParser: true, requestTimeout: 10_000 }, (req, res) => this.onRequest(req, res));
    this.http.on('connect', (req: IncomingMessage, socket: Socket) => this.onConnect(req, socket));
    this.http.on('clientError', (err: Error & { rawPacket?: Buffer }, socket: Socket) => this.onClientError(err, socket));
    this.front = createNetServer((socket) => this.onSocket(socket));
  }

  async listen(host = '127.0.0.1'): Promise<number> {
    await new Promise<void>((resolve) => this.front.listen(0, host, resolve));
    return (this.front.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.front.close(() => resolve()));
  }

  /** Runs phases 1-5 and logs; returns the status the client gets. */
  inspect(request: EngineRequest): HarnessVerdict {
    const tx = this.waf.newTransaction({ ...request, headers: dropContentLengthIfChunked(request.headers) });
    const interruption = tx.processRequest();
    let status: number;
    if (interruption) status = interruption.status;
    else {
      status = originStatus(request.method, splitRequestTarget(request.uri).path);
      tx.processResponseHeaders({ status, headers: [['Content-Type', 'text/plain']] });
      tx.processResponseBody(Buffer.from('ok\n'));
    }
    tx.processLogging();
    const ctx = { clientAddr: request.remoteAddr, hostname: tx.request.serverName, uri: tx.request.uri, uniqueId: tx.uniqueId };
    for (const match of tx.matches) this.lines.push(formatModSecurityLogLine(match, ctx));
    return { interruption: tx.interruption ?? interruption, status };
  }

  private onSocket(socket: Socket): void {
    let buf = Buffer.alloc(0);
    let decided = false;
    const decide = () => {
      if (decided) return;
      decided = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      this.route(socket, buf);
    };
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (headEnd(buf) >= 0 || buf.length > 65536) decide();
    };
    const timer = setTimeout(decide, HEAD_WAIT_MS);
    socket.on('data', onData);
    socket.on('error', () => socket.destroy());
  }

  private route(socket: Socket, buf: Buffer): void {
    if (buf.length === 0) {
      socket.destroy();
      return;
    }
    const verdict = apacheVerdict(buf.toString('latin1', 0, Math.max(0, headEnd(buf)) || buf.length));
    if (verdict.kind === 'reject') {
      socket.end(`HTTP/1.1 ${verdict.status} Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    if (verdict.kind === 'simple') {
      const parsed = parseRawHttpRequest(buf, socket.remoteAddress, socket.remotePort);
      if (parsed) this.inspect(parsed.request);
      socket.end('ok\n');
      return;
    }
    socket.unshift(buf);
    this.http.emit('connection', socket);
    socket.resume();
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const verdict = this.inspect(engineRequestFromNode(req, Buffer.concat(chunks)));
      if (verdict.interruption?.action === 'drop') {
        res.destroy();
        return;
      }
      res.writeHead(verdict.status, { 'Content-Type': 'text/plain', Connection: 'close' });
      res.end(verdict.status === 200 ? 'ok\n' : `${verdict.status}\n`);
    });
  }

  private onConnect(req: IncomingMessage, socket: Socket): void {
    const verdict = this.inspect(engineRequestFromNode(req, undefined));
    const status = verdict.interruption ? verdict.status : 405;
    socket.end(`HTTP/1.1 ${status} ${status === 405 ? 'Method Not Allowed' : 'Forbidden'}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  }

  private onClientError(err: Error & { rawPacket?: Buffer; code?: string }, socket: Socket): void {
    if (!socket.writable) return;
    const parsed = err.rawPacket && err.code !== 'HPE_HEADER_OVERFLOW' ? parseRawHttpRequest(err.rawPacket, socket.remoteAddress, socket.remotePort) : undefined;
    if (parsed === undefined) {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const verdict = this.inspect(parsed.request);
    if (verdict.interruption?.action === 'drop') {
      socket.destroy();
      return;
    }
    socket.end(`HTTP/1.1 ${verdict.status} Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  }
}
