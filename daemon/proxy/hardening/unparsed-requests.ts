import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { countryOf } from '../checks/geo.js';
import type { ClientIpResolver } from '../client-ip.js';
import type { EdgeRequest } from '../edge-request.js';
import { accessEntry, ruleEvent } from '../edge-events.js';
import type { EventSink } from '../events.js';
import { parseIp, type IpKey } from '../ip-set.js';
import { page, type Page } from '../pages.js';
import { requestPaths } from '../path-normal-form.js';
import type { EdgeSnapshot } from '../snapshot.js';
import { parsedHead, type RawHead } from './raw-head.js';

// The requests node:http answers without ever emitting 'request': what its parser (llhttp)
// refuses ('clientError': unknown or lower-case methods, raw non-ASCII bytes or controls in the
// target, malformed request lines and fields, bad chunk framing) and CONNECT ('connect', which
// node answers with nothing at all when no listener is set). Each gets the edge's page with a
// request id and closes the connection; each is a WAF event (group `edge`, files `edge/protocol`,
// action block) and an access entry for the site its Host names (else the default site), so
// `wafctl logs` shows them. A head with no site to charge it to (unknown Host, no default site) is
// answered the same and logged nowhere, like a 421.
// The head is read from the bytes node had in hand when it failed (err.rawPacket): a head split
// over several reads may be missing its Host there. The client address is the socket peer
// (X-Forwarded-For is not believed from a head the parser refused).

/** Seconds a refused connection may take to read its answer before it is closed regardless. */
const CLOSE_GRACE_MS = 1_000;
/** Longest request line text kept for the event. */
const MAX_LINE = 2048;

interface ParserError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
  bytesParsed?: number;
}

export interface UnparsedRequestDeps {
  snapshot(): EdgeSnapshot;
  clientIps: ClientIpResolver;
  sink: EventSink;
}

export class UnparsedRequests {
  private readonly answered = new WeakSet<Duplex>();

  constructor(private readonly deps: UnparsedRequestDeps) {}

  /** Server 'clientError': the parser refused bytes on this connection (or the head timed out). */
  clientError(err: ParserError, socket: Duplex): void {
    // llhttp stays failed and reports again on more data: one answer per connection.
    if (this.answered.has(socket)) return;
    this.answered.add(socket);
    const status = statusFor(err.code);
    if (status === null || !socket.writable) { socket.destroy(); return; }
    const requestId = randomUUID();
    // A timeout is a slow client, not a request: answered, not an event (as before).
    if (status !== 408) {
      const head = parsedHead(err.rawPacket, err.bytesParsed ?? 0);
      this.record(head, socket, requestId, status, 'parser-refused', `Request refused by the HTTP parser: ${err.reason ?? err.code}`);
    }
    this.answerInTurn(socket, page(status, requestId, { connection: 'close' }));
  }

  /** Server 'connect': the edge tunnels nothing; 405 as nginx (no Allow: no method is allowed on this target). */
  connect(req: IncomingMessage, socket: Duplex): void {
    this.answered.add(socket);
    const requestId = randomUUID();
    const head: RawHead = { method: 'CONNECT', target: req.url ?? '', host: req.headers.host, line: `CONNECT ${req.url ?? ''} HTTP/${req.httpVersion}`, userAgent: req.headers['user-agent'] };
    this.record(head, socket, requestId, 405, 'connect-refused', 'CONNECT refused: the edge tunnels nothing');
    // The bytes after the head (a TLS hello, SSH banner) are read and dropped.
    socket.on('data', () => {});
    this.answer(socket, page(405, requestId, { connection: 'close' }));
  }

  /** The edge's own protocol guard refused a parsed request (request-guard.ts: two Host fields,
   *  a Transfer-Encoding it does not accept, an oversized head...): the same event and access entry. */
  protocolRefused(req: IncomingMessage, socket: Duplex, requestId: string, status: number, reason: string): void {
    const target = req.url ?? '';
    const head: RawHead = { method: req.method ?? '', target, host: req.headers.host, line: `${req.method ?? ''} ${target} HTTP/${req.httpVersion}`.slice(0, MAX_LINE), userAgent: req.headers['user-agent'] };
    this.record(head, socket, requestId, status, 'protocol-refused', `Request refused by the edge's protocol guard: ${reason}`);
  }

  private record(head: RawHead, socket: Duplex, requestId: string, status: number, ruleId: string, msg: string): void {
    const site = this.deps.snapshot().siteForHost(head.host);
    if (!site) return;
    const peer = parseIp((socket as Duplex & { remoteAddress?: string }).remoteAddress ?? '') ?? UNKNOWN_PEER;
    const client = this.deps.clientIps.resolve(peer, undefined);
    const uri = head.target.slice(0, MAX_LINE);
    const edge: EdgeRequest = {
      requestId, receivedAt: Date.now(), method: head.method, uri, path: requestPaths(uri).path,
      host: head.host ?? site.domain, client, country: countryOf(client), userAgent: head.userAgent ?? '',
      referer: undefined, cookie: undefined, secure: (socket as Duplex & { encrypted?: boolean }).encrypted === true, site,
    };
    this.deps.sink.waf(ruleEvent(edge, {
      ruleId, group: 'edge', file: 'edge/protocol', msg, severity: 'WARNING', matchedVar: 'REQUEST_LINE', matchedData: head.line.slice(0, MAX_LINE),
    }, true));
    this.deps.sink.access(accessEntry(edge, { status, bytesSent: 0, requestTimeS: 0, blocked: true }));
  }

  /**
   * After the responses to the requests before the refused one, if they are complete: a client
   * that pipelined a good request and then garbage gets its answer, then the refusal. A response
   * whose request never finished (its body is what failed) is cut, as node does.
   */
  private answerInTurn(socket: Duplex, p: Page): void {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!inFlight) { this.answer(socket, p); return; }
    if (!inFlight.req?.complete) {
      if (inFlight.headersSent) socket.destroy(); else this.answer(socket, p);
      return;
    }
    inFlight.once('finish', () => process.nextTick(() => { if (socket.writable) this.answerInTurn(socket, p); }));
    inFlight.once('close', () => { if (!inFlight.writableFinished) socket.destroy(); });
  }

  private answer(socket: Duplex, p: Page): void {
    const body = Buffer.from(p.body);
    let head = `HTTP/1.1 ${p.status} ${REASONS[p.status] ?? 'Refused'}\r\n`;
    for (const [k, v] of Object.entries(p.headers)) head += `${k}: ${v}\r\n`;
    // Destroyed once written: nothing else on this connection is answered (the request in
    // flight, if any, had a broken body), and a client that never reads is let go.
    socket.end(Buffer.concat([Buffer.from(head + '\r\n', 'latin1'), body]), () => socket.destroy());
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  }
}

const UNKNOWN_PEER: IpKey = { v: 4, n: 0, text: '0.0.0.0' };

const REASONS: Record<number, string> = {
  400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large',
};

/** node's own choice of answer for each failure (_http_server.js socketOnError); null: a socket error, no answer. */
function statusFor(code: string | undefined): number | null {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return code?.startsWith('HPE_') ? 400 : null;
}
