// A small loopback HTTP server that runs every request through a Waf and records the
// ModSecurity-style log line of every logged rule match. The CRS conformance runner drives
// it with raw bytes, so requests go through a real HTTP parser (node:http), not a shortcut.
// The edge proxy (daemon/proxy/) replaces this for production traffic.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Waf } from '../waf.js';
import type { EngineRequest } from '../request/model.js';
import type { Interruption } from '../rules/match.js';
import { engineRequestFromNode } from '../request/from-node.js';
import { formatModSecurityLogLine } from '../log-line.js';
import { splitRequestTarget } from '../request/uri.js';
import { originStatus } from './origin-emulation.js';

export interface HarnessVerdict {
  interruption: Interruption | null;
  status: number;
}

export class EngineHarness {
  /** Log lines of every request so far, in order. */
  readonly lines: string[] = [];
  private readonly server: Server;

  constructor(private readonly waf: Waf) {
    this.server = createServer({ insecureHTTPParser: true, requestTimeout: 10_000 }, (req, res) => this.onRequest(req, res));
    this.server.on('connect', (req: IncomingMessage, socket: Socket) => this.onConnect(req, socket));
  }

  async listen(host = '127.0.0.1'): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Runs phases 1-5 and logs; returns the status the client gets. */
  inspect(request: EngineRequest): HarnessVerdict {
    const tx = this.waf.newTransaction(request);
    const interruption = tx.processRequest();
    let status: number;
    if (interruption) status = interruption.status;
    else {
      status = originStatus(request.method, splitRequestTarget(request.uri).path);
      tx.processResponseHeaders({ status, headers: [['Content-Type', 'text/plain']] });
      tx.processResponseBody(Buffer.from('ok\n'));
    }
    tx.processLogging();
    const ctx = {
      clientAddr: request.remoteAddr,
      hostname: tx.request.serverName,
      uri: tx.request.uri,
      uniqueId: tx.uniqueId,
    };
    for (const match of tx.matches) this.lines.push(formatModSecurityLogLine(match, ctx));
    return { interruption: tx.interruption ?? interruption, status };
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
}
