import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Duplex, Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { CounterStore } from '../store/counter-store.js';
import { acmeKeyAuthorization, answerAcmeChallenge } from './acme-challenge.js';
import { bufferBody, discardRest, hasBody, resumedBody } from './body-buffer.js';
import { countryOf } from './checks/geo.js';
import { checkRuleCounters } from './checks/rule-counters.js';
import type { Block, CheckOutcome } from './checks/outcome.js';
import type { ClientIpResolver } from './client-ip.js';
import type { EdgeRequest } from './edge-request.js';
import { accessEntry, blockEvent, ruleEvent } from './edge-events.js';
import type { EventSink } from './events.js';
import { originRequestHeaders } from './forward-headers.js';
import { watchBodyProgress } from './hardening/body-progress.js';
import { bodyOverLimitEvent } from './hardening/edge-fault-events.js';
import { engineFailure, reportEngineFailure } from './hardening/engine-failure.js';
import type { EdgeLimits } from './hardening/edge-limits.js';
import type { LoadShedder } from './hardening/load-shedder.js';
import { protocolRefusal } from './hardening/request-guard.js';
import { inspectedRequest, siteView } from './inspected-request.js';
import type { RequestInspector, ResponseInspection, Verdict } from './inspector.js';
import { InspectingRelay } from './inspecting-relay.js';
import { logPhase, responseGate } from './response-gate.js';
import type { OriginPools } from './origin-pools.js';
import { OriginRelay } from './origin-relay.js';
import { page } from './pages.js';
import { requestPaths } from './path-prefix.js';
import type { CheckPipeline } from './pipeline.js';
import { blockPage, DROPPED_STATUS, drop, sendPage, siteBlockPage, writeRawPage as rawPage } from './respond.js';
import { parseIp, type IpKey } from './ip-set.js';
import type { EdgeSnapshot } from './snapshot.js';
import { UpgradeExchange } from './upgrade-exchange.js';
import { OriginFailureLog } from './origin-failure-log.js';

// One request through the edge: protocol guard (400/414/431/501/505), load shedding (503), site
// (421/503), client IP, checks, rule groups, origin. Everything a request needs from the
// configuration comes from the snapshot current when its head arrived.

export interface HandlerDeps {
  snapshot(): EdgeSnapshot;
  clientIps: ClientIpResolver;
  pipeline: CheckPipeline;
  inspector: RequestInspector;
  pools: OriginPools;
  counters: CounterStore;
  sink: EventSink;
  maxBodyBytes: number;
  connectTimeoutMs: number;
  limits: EdgeLimits;
  shedder: LoadShedder;
  /** Records a request the protocol guard refused (hardening/unparsed-requests.ts), so it shows in the logs. */
  protocolRefused?(req: IncomingMessage, socket: Duplex, requestId: string, status: number, reason: string): void;
}

interface RequestState {
  blocked: boolean;
  upstreamTimeS?: number;
  /** Why the origin exchange failed (set by the relay), for the access entry and the daemon log. */
  upstreamError?: string;
  /** res has closed (response done, or the client gone). */
  closed: boolean;
  /** The origin exchange, once the request is forwarded. */
  relay: OriginRelay | InspectingRelay | null;
  /** The engine transaction's response side (phases 3-5), when the site inspects responses. */
  exchange: ResponseInspection | null;
}

const UNKNOWN_PEER: IpKey = { v: 4, n: 0, text: '0.0.0.0' };
/** Seconds a shed client is told to wait: overload passes or persists within seconds. */
const SHED_RETRY_AFTER_S = '1';

export class RequestHandler {
  private readonly refusedConnections = new WeakSet<object>();
  private readonly originFailures = new OriginFailureLog();

  constructor(private readonly deps: HandlerDeps) {}

  /** Entry point for 'request' events; returns nothing, answers through res. */
  handle(req: IncomingMessage, res: ServerResponse, secure: boolean): void {
    if (!this.admit(req, res, null)) return;
    if (hasBody(req)) {
      watchBodyProgress(req, this.deps.limits.bodyIdleTimeoutMs, () => {
        // The client stopped sending its body: answer 408 if nothing was sent yet, and let go of the socket.
        if (!res.headersSent) { this.lastOnConnection(req, res); sendPage(res, page(408, randomUUID())); }
        req.socket.destroySoon();
        setTimeout(() => req.socket.destroy(), 1_000).unref();
      });
    }
    const started = performance.now();
    const ctx = this.context(req, secure, res);
    if (!ctx) { res.once('close', () => this.deps.shedder.release()); return; }
    // res.socket is detached by the time 'close' fires on keep-alive connections: keep a reference.
    const socket = req.socket;
    const startBytes = socket.bytesWritten;
    const state: RequestState = { blocked: false, upstreamTimeS: undefined, closed: false, relay: null, exchange: null };
    // The one 'close' listener of a request: frees its in-flight slot, stops the origin if the
    // client left before the response was complete, and writes the access entry.
    res.once('close', () => {
      state.closed = true;
      this.deps.shedder.release();
      state.relay?.clientGone();
      // Phase 5 for every request the engine saw, blocked ones too; its events before the access entry.
      if (state.exchange) logPhase(ctx.edge, this.deps.sink, state.exchange, state.blocked);
      this.deps.sink.access(accessEntry(ctx.edge, {
        status: res.statusCode, bytesSent: socket.bytesWritten - startBytes, blocked: state.blocked,
        requestTimeS: (performance.now() - started) / 1000, upstreamTimeS: state.upstreamTimeS, upstreamError: state.upstreamError,
      }));
      if (state.upstreamError !== undefined) {
        const { site } = ctx.edge;
        this.originFailures.note({ siteId: site.id, domain: site.domain, origin: site.origin.origin, reason: state.upstreamError, status: res.statusCode, requestId: ctx.edge.requestId });
      }
    });
    const keyAuthorization = acmeKeyAuthorization(ctx.edge.site, ctx.edge.uri);
    // HTTP-01 is answered on the plain port only (RFC 8555 8.3), before the site's status and checks.
    if (keyAuthorization !== null && !secure) { answerAcmeChallenge(res, keyAuthorization); return; }
    if (ctx.edge.site.status !== 'active') { sendPage(res, page(503, ctx.edge.requestId)); return; }
    const outcome = this.deps.pipeline.run(ctx.edge);
    const next = (o: CheckOutcome) => {
      if (o?.kind === 'block') { state.blocked = true; this.refuse(ctx.edge, o, req.socket, res); return; }
      if (o?.kind === 'interstitial') { res.setHeader('x-request-id', ctx.edge.requestId); sendPage(res, o); return; }
      if (o?.kind === 'allow') { this.forward(ctx.edge, ctx.peer, req, res, null, state); return; }
      this.inspectThenForward(ctx.edge, ctx.peer, req, res, state);
    };
    if (outcome instanceof Promise) outcome.then(next, (err) => this.fail(ctx.edge, res, err));
    else next(outcome);
  }

  /**
   * Entry point for 'upgrade' events (Connection: upgrade + Upgrade): the same guard and checks,
   * the body read and inspected, and a tunnel only once the origin answers 101 (upgrade-exchange.ts).
   * `head` is every byte node read past the request head: body and anything pipelined, unparsed.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, secure: boolean): void {
    // node has let go of the socket: without a listener a reset would be an uncaught error.
    socket.on('error', () => {});
    if (!this.admit(req, null, socket)) return;
    const ctx = this.context(req, secure, null, socket);
    if (!ctx) { this.deps.shedder.release(); return; }
    // Nothing after the head is read until the exchange knows what it is (a body, or tunnel bytes).
    socket.pause();
    if (head.length) socket.unshift(head);
    new UpgradeExchange(this.deps, ctx.edge, ctx.peer, req, socket as net.Socket).start();
  }

  /**
   * The protocol guard and the load shedder, before any site logic. false: the request was answered
   * (the connection is closed after a protocol refusal; a shed one stays open for the client's retry).
   */
  private admit(req: IncomingMessage, res: ServerResponse | null, socket: Duplex | null): boolean {
    // Requests pipelined behind a refused one are parsed by node all the same: they are never
    // handled (no response; node closes the connection once the refusal is written).
    if (this.refusedConnections.has(req.socket)) return false;
    const refusal = protocolRefusal(req, this.deps.limits);
    if (refusal) {
      this.refusedConnections.add(req.socket);
      const requestId = randomUUID();
      this.deps.protocolRefused?.(req, req.socket, requestId, refusal.status, refusal.reason);
      const p = page(refusal.status, requestId, { connection: 'close' });
      if (res) sendPage(res, p); else if (socket) rawPage(socket, p);
      return false;
    }
    if (this.deps.shedder.admit() !== 'ok') {
      const p = page(503, randomUUID(), { 'retry-after': SHED_RETRY_AFTER_S });
      if (res) sendPage(res, p); else if (socket) rawPage(socket, p);
      return false;
    }
    return true;
  }

  private context(req: IncomingMessage, secure: boolean, res: ServerResponse | null, socket?: Duplex): { edge: EdgeRequest; peer: IpKey } | null {
    const requestId = randomUUID();
    const site = this.deps.snapshot().siteForHost(req.headers.host);
    if (!site) {
      // No site to charge the request to, so no access entry: unknown hosts are scanners' noise.
      const p = page(421, requestId);
      if (res) sendPage(res, p); else if (socket) rawPage(socket, p);
      return null;
    }
    const peer = parseIp(req.socket.remoteAddress ?? '') ?? UNKNOWN_PEER;
    const client = this.deps.clientIps.resolve(peer, req.headers['x-forwarded-for']);
    const uri = originForm(req.url ?? '/');
    const h = req.headers;
    const paths = requestPaths(uri);
    const edge: EdgeRequest = {
      requestId, receivedAt: Date.now(), method: req.method ?? 'GET', uri, path: paths.path, pathUnresolved: paths.unresolved,
      host: h.host ?? site.domain, client, country: countryOf(client), userAgent: h['user-agent'] ?? '',
      referer: h.referer, cookie: h.cookie, secure, site,
    };
    return { edge, peer };
  }

  private refuse(edge: EdgeRequest, block: Block, socket: Duplex, res: ServerResponse): void {
    this.deps.sink.waf(blockEvent(edge, block));
    const answer = blockPage(block, edge.site.blockResponse, edge.requestId);
    if (answer === 'drop') { res.statusCode = DROPPED_STATUS; drop(socket); } else sendPage(res, answer);
  }

  private inspectThenForward(edge: EdgeRequest, peer: IpKey, req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    const { site } = edge;
    if (site.waf.mode === 'off') { this.forward(edge, peer, req, res, null, state); return; }
    const view = siteView(site);
    // body: what the engine reads; forwardBody: what the origin gets (the same bytes, or an uninspected stream).
    const judge = (body: Buffer | null, forwardBody: Buffer | Readable | null) => {
      let verdict: ReturnType<RequestInspector['inspect']>;
      try {
        verdict = this.deps.inspector.inspect(inspectedRequest(edge, req, view, body));
      } catch (err) { this.engineFailed(edge, peer, req, res, forwardBody, state, err); return; }
      const after = (v: Verdict | null) => {
        state.exchange = v?.response ?? null;
        const blocked = !!v?.block && site.waf.mode === 'on';
        if (v) for (const m of v.matches) this.deps.sink.waf(ruleEvent(edge, m, blocked));
        if (!blocked && site.waf.mode === 'on' && v?.counters?.length) {
          checkRuleCounters(edge, v.counters, this.deps.counters).then((over) => {
            if (!over) { this.forward(edge, peer, req, res, forwardBody, state); return; }
            state.blocked = true;
            this.refuse(edge, over, req.socket, res);
          }, (err) => this.fail(edge, res, err));
          return;
        }
        if (!blocked) { this.forward(edge, peer, req, res, forwardBody, state); return; }
        state.blocked = true;
        const answer = siteBlockPage(site.blockResponse, edge.requestId);
        if (answer === 'drop') { res.statusCode = DROPPED_STATUS; drop(req.socket); } else sendPage(res, answer);
      };
      if (verdict instanceof Promise) verdict.then(after, (err) => this.engineFailed(edge, peer, req, res, forwardBody, state, err)); else after(verdict);
    };
    if (!this.deps.inspector.wantsBody(view) || !hasBody(req)) { judge(null, null); return; }
    bufferBody(req, this.deps.maxBodyBytes).then((read) => {
      if (read.kind === 'whole') { judge(read.body, read.body); return; }
      if (site.bodyOverLimit === 'pass') {
        // The head is still inspected; the body goes through unread, and the event says so.
        this.deps.sink.waf(bodyOverLimitEvent(edge, this.deps.maxBodyBytes));
        judge(null, resumedBody(read.head, req));
        return;
      }
      discardRest(req);
      this.lastOnConnection(req, res);
      sendPage(res, page(413, edge.requestId));
    }, () => req.socket.destroy());
  }

  /** This response closes the connection; requests pipelined behind it are not handled. */
  private lastOnConnection(req: IncomingMessage, res: ServerResponse): void {
    this.refusedConnections.add(req.socket);
    res.setHeader('connection', 'close');
  }

  /** The engine gave no verdict: a request over the time budget is refused like a block; another
   *  failure is the site's waf.onError's (fail-closed by default). See hardening/engine-failure.ts. */
  private engineFailed(edge: EdgeRequest, peer: IpKey, req: IncomingMessage, res: ServerResponse, forwardBody: Buffer | Readable | null, state: RequestState, err: unknown): void {
    const failure = engineFailure(edge, err);
    reportEngineFailure(edge.requestId, failure, err);
    this.deps.sink.waf(failure.event);
    if (failure.kind === 'forward') { this.forward(edge, peer, req, res, forwardBody, state); return; }
    state.blocked = true;
    if (res.headersSent) { res.destroy(); return; }
    if (failure.kind === 'error') { sendPage(res, page(500, edge.requestId)); return; }
    const answer = siteBlockPage(edge.site.blockResponse, edge.requestId);
    if (answer === 'drop') { res.statusCode = DROPPED_STATUS; drop(req.socket); } else sendPage(res, answer);
  }

  private forward(edge: EdgeRequest, peer: IpKey, req: IncomingMessage, res: ServerResponse, body: Buffer | Readable | null, state: RequestState): void {
    // The client left while the checks or the body read ran: nobody to answer, nothing to forward.
    if (state.closed) return;
    const { site } = edge;
    const headers = originRequestHeaders(req.headers, {
      peer: peer.text, peerTrusted: this.deps.clientIps.isTrusted(peer), secure: edge.secure, requestId: edge.requestId,
      bufferedLength: Buffer.isBuffer(body) ? body.length : undefined,
    });
    const origin = new OriginRelay(res, edge.requestId, state);
    // Phases 3-4 hold the response back until they have judged it (inspecting-relay.ts).
    const relay = state.exchange === null ? origin : new InspectingRelay(origin, state.exchange, responseGate(edge, this.deps.sink, res, req.socket, { blocked: () => { state.blocked = true; } }), edge.method);
    state.relay = relay;
    this.deps.pools.get(site).dispatch(
      { path: site.originBasePath + edge.uri, method: edge.method as 'GET', headers, body: body ?? (hasBody(req) ? req : null) },
      relay as unknown as Dispatcher.DispatchHandler,
    );
  }

  private fail(edge: EdgeRequest, res: ServerResponse, err: unknown): void {
    // 5xx details go to the log, never to the client.
    console.error(`edge: request ${edge.requestId} failed:`, err);
    if (!res.headersSent) sendPage(res, page(502, edge.requestId)); else res.destroy();
  }
}

/** An absolute-form target ("http://host/path?q", RFC 9112 3.2.2) as the origin-form the origin expects. */
function originForm(target: string): string {
  if (target.charCodeAt(0) === 47 /* / */) return target;
  const m = /^https?:\/\/[^/?#]*(.*)$/i.exec(target);
  if (!m) return target;
  return m[1].startsWith('/') ? m[1] : `/${m[1]}`;
}
