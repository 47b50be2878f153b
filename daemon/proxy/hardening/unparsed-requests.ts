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
import { DROPPED_STATUS, drop, siteBlockPage } from '../respond.js';
import type { RequestInspector } from '../inspector.js';
import type { EdgeLimits } from './edge-limits.js';
import { headStart, parsedHead, type RawHead } from './raw-head.js';
import { collectRefusedHead } from './refused-head-collector.js';
import { inspectRefused, type RefusedRequestView } from './refused-inspection.js';

// The requests node:http answers without ever emitting 'request': what its parser (llhttp)
// refuses ('clientError': unknown or lower-case methods, raw non-ASCII bytes or controls in the
// target, malformed request lines and fields, bad chunk framing) and CONNECT ('connect', which
// node answers with nothing at all when no listener is set). Each gets the edge's page with a
// request id and closes the connection; each is a WAF event (group `edge`, files `edge/protocol`,
// action block) and an access entry for the site its Host names (else the default site), so
// `wafctl logs` shows them. A head with no site to charge it to (unknown Host, no default site) is
// answered the same and logged nowhere, like a 421.
// Before it is answered, a refused head is read by the edge's own strict parser (refused-head.ts;
// the rest of a head split over reads is collected, refused-head-collector.ts) and, when readable,
// judged by the site's rules (refused-inspection.ts): their matches are logged beside the edge's
// event, and when they block (site in `on` mode) the answer is the site's block response. It is
// refused either way and nothing on the connection reaches the origin. An unreadable head (a body's
// broken framing, a head over the limit, bytes that are no head) gets the edge's event alone, its
// fields read best effort (raw-head.ts). The client address is the socket peer (X-Forwarded-For is
// not believed from a head the parser refused).

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
  /** The site's rules, run on a refused head that could be read (refused-inspection.ts). */
  inspector: RequestInspector;
  /** Head limits and the head timeout: what the refused head may take (refused-head-collector.ts). */
  limits: EdgeLimits;
}

/** How the refused request is answered: the edge's page, or the site's block response. */
type Answer = Page | 'drop';

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
    if (status === 408) { this.answerInTurn(socket, page(408, requestId, { connection: 'close' })); return; }
    const raw = err.rawPacket ?? Buffer.alloc(0);
    const failedAt = err.bytesParsed ?? 0;
    const reason = `Request refused by the HTTP parser: ${err.reason ?? err.code}`;
    if (!HEAD_ERRORS.has(err.code ?? '') || this.bodyInFlight(socket)) {
      // Not a head (a broken body, a head over the limit): the edge's refusal alone, as before.
      this.refuse(parsedHead(raw, failedAt), null, socket, requestId, status, 'parser-refused', reason);
      return;
    }
    collectRefusedHead(socket, raw.subarray(headStart(raw, failedAt)), this.deps.limits, (reading) => {
      if (reading.kind !== 'head') { this.refuse(parsedHead(raw, failedAt), null, socket, requestId, status, 'parser-refused', reason); return; }
      const head = reading.head;
      // A well-formed version llhttp does not take (HTTP/3.0): 505, as the request guard answers HTTP/2.0.
      const finalStatus = err.code === 'HPE_INVALID_VERSION' && !head.versionless && head.protocol[5] !== '1' && head.protocol[5] !== '0' ? 505 : status;
      const rawHead: RawHead = { method: head.method, target: head.target, host: fieldOf(head.headers, 'host'), userAgent: fieldOf(head.headers, 'user-agent'), line: head.line };
      this.refuse(rawHead, head, socket, requestId, finalStatus, 'parser-refused', reason);
    });
  }

  /** Server 'connect': the edge tunnels nothing; 405 as nginx (no Allow: no method is allowed on this target). */
  connect(req: IncomingMessage, socket: Duplex): void {
    this.answered.add(socket);
    const requestId = randomUUID();
    const target = req.url ?? '';
    const head: RawHead = { method: 'CONNECT', target, host: req.headers.host, line: `CONNECT ${target} HTTP/${req.httpVersion}`, userAgent: req.headers['user-agent'] };
    const view: RefusedRequestView = { method: 'CONNECT', target, protocol: `HTTP/${req.httpVersion}`, headers: pairs(req.rawHeaders) };
    // The bytes after the head (a TLS hello, SSH banner) are read and dropped.
    socket.on('data', () => {});
    this.refuse(head, view, socket, requestId, 405, 'connect-refused', 'CONNECT refused: the edge tunnels nothing');
  }

  /** The edge's own protocol guard refused a parsed request (request-guard.ts: two Host fields,
   *  a Transfer-Encoding it does not accept, an oversized head...): the same event and access entry. */
  protocolRefused(req: IncomingMessage, socket: Duplex, requestId: string, status: number, reason: string): void {
    const target = req.url ?? '';
    const head: RawHead = { method: req.method ?? '', target, host: req.headers.host, line: `${req.method ?? ''} ${target} HTTP/${req.httpVersion}`.slice(0, MAX_LINE), userAgent: req.headers['user-agent'] };
    const edge = this.edgeRequest(head, socket, requestId);
    if (!edge) return;
    this.deps.sink.waf(this.refusalEvent(edge, head, 'protocol-refused', `Request refused by the edge's protocol guard: ${reason}`));
    this.deps.sink.access(accessEntry(edge, { status, bytesSent: 0, requestTimeS: 0, blocked: true }));
  }

  /**
   * Logs the refusal and answers it. With a readable head (`view`), the site's rules run on it
   * first: their matches are logged too, and when they block (a site in `on` mode) the answer is
   * the site's block response instead of the edge's page. Never forwarded either way.
   */
  private refuse(head: RawHead, view: RefusedRequestView | null, socket: Duplex, requestId: string, status: number, ruleId: string, msg: string): void {
    const edge = this.edgeRequest(head, socket, requestId);
    const edgePage = page(status, requestId, { connection: 'close' });
    if (!edge) { this.answerInTurn(socket, edgePage); return; }
    this.deps.sink.waf(this.refusalEvent(edge, head, ruleId, msg));
    if (!view) { this.finish(edge, socket, edgePage, status); return; }
    void inspectRefused(this.deps.inspector, edge, view, socket).then((verdict) => {
      for (const m of verdict.matches) this.deps.sink.waf(ruleEvent(edge, m, verdict.block));
      if (verdict.failure) this.deps.sink.waf(verdict.failure);
      if (!verdict.block) { this.finish(edge, socket, edgePage, status); return; }
      const blockPage = siteBlockPage(edge.site.blockResponse, requestId);
      this.finish(edge, socket, blockPage === 'drop' ? 'drop' : { ...blockPage, headers: { ...blockPage.headers, connection: 'close' } }, blockPage === 'drop' ? DROPPED_STATUS : blockPage.status);
    });
  }

  private finish(edge: EdgeRequest, socket: Duplex, answer: Answer, status: number): void {
    this.deps.sink.access(accessEntry(edge, { status, bytesSent: 0, requestTimeS: (Date.now() - edge.receivedAt) / 1000, blocked: true }));
    this.answerInTurn(socket, answer);
  }

  private edgeRequest(head: RawHead, socket: Duplex, requestId: string): EdgeRequest | null {
    const site = this.deps.snapshot().siteForHost(head.host);
    if (!site) return null;
    const peer = parseIp((socket as Duplex & { remoteAddress?: string }).remoteAddress ?? '') ?? UNKNOWN_PEER;
    const client = this.deps.clientIps.resolve(peer, undefined);
    const uri = head.target.slice(0, MAX_LINE);
    return {
      requestId, receivedAt: Date.now(), method: head.method, uri, path: requestPaths(uri).path,
      host: head.host ?? site.domain, client, country: countryOf(client), userAgent: head.userAgent ?? '',
      referer: undefined, cookie: undefined, secure: (socket as Duplex & { encrypted?: boolean }).encrypted === true, site,
    };
  }

  private refusalEvent(edge: EdgeRequest, head: RawHead, ruleId: string, msg: string) {
    return ruleEvent(edge, { ruleId, group: 'edge', file: 'edge/protocol', msg, severity: 'WARNING', matchedVar: 'REQUEST_LINE', matchedData: head.line.slice(0, MAX_LINE) }, true);
  }

  /** A request on this connection whose body is still arriving: the parser failed in that body. */
  private bodyInFlight(socket: Duplex): boolean {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    return !!inFlight && !inFlight.req?.complete;
  }

  /**
   * After the responses to the requests before the refused one, if they are complete: a client
   * that pipelined a good request and then garbage gets its answer, then the refusal. A response
   * whose request never finished (its body is what failed) is cut, as node does.
   */
  private answerInTurn(socket: Duplex, p: Answer): void {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!inFlight) { this.answer(socket, p); return; }
    if (!inFlight.req?.complete) {
      if (inFlight.headersSent) socket.destroy(); else this.answer(socket, p);
      return;
    }
    inFlight.once('finish', () => process.nextTick(() => { if (socket.writable) this.answerInTurn(socket, p); }));
    inFlight.once('close', () => { if (!inFlight.writableFinished) socket.destroy(); });
  }

  private answer(socket: Duplex, p: Answer): void {
    if (p === 'drop' || !socket.writable) { drop(socket); return; }
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
  403: 'Forbidden', 404: 'Not Found', 505: 'HTTP Version Not Supported', 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large',
};

/** node's own choice of answer for each failure (_http_server.js socketOnError); null: a socket error, no answer. */
function statusFor(code: string | undefined): number | null {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return code?.startsWith('HPE_') ? 400 : null;
}

/** llhttp's errors in a request head (method, target, version, fields, framing fields): the head
 *  is worth reading. Others are in a body (chunk sizes...) or the head is over the limit (431). */
const HEAD_ERRORS = new Set([
  'HPE_INVALID_METHOD', 'HPE_INVALID_URL', 'HPE_INVALID_CONSTANT', 'HPE_INVALID_VERSION', 'HPE_INVALID_HEADER_TOKEN',
  'HPE_INVALID_CONTENT_LENGTH', 'HPE_UNEXPECTED_CONTENT_LENGTH', 'HPE_INVALID_TRANSFER_ENCODING',
  'HPE_CR_EXPECTED', 'HPE_LF_EXPECTED', 'HPE_UNEXPECTED_SPACE', 'HPE_STRICT',
]);

function fieldOf(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  for (const [n, v] of headers) if (n.length === name.length && n.toLowerCase() === name) return v;
  return undefined;
}

function pairs(raw: string[]): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
}
