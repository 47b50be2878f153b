import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import type { CounterStore } from '../store/counter-store.js';
import { countryOf } from './checks/geo.js';
import { checkRuleCounters } from './checks/rule-counters.js';
import type { Block, CheckOutcome } from './checks/outcome.js';
import type { ClientIpResolver } from './client-ip.js';
import type { EdgeRequest } from './edge-request.js';
import { accessEntry, blockEvent, ruleEvent } from './edge-events.js';
import type { EventSink } from './events.js';
import { clientResponseHeaders, originRequestHeaders } from './forward-headers.js';
import type { InspectedRequest, RequestInspector, Verdict } from './inspector.js';
import type { OriginPools } from './origin-pools.js';
import { page } from './pages.js';
import { normalizePath } from './path-prefix.js';
import type { CheckPipeline } from './pipeline.js';
import { blockPage, DROPPED_STATUS, drop, sendPage, siteBlockPage, writeRawPage as rawPage } from './respond.js';
import { parseIp, type IpKey } from './ip-set.js';
import type { EdgeSnapshot } from './snapshot.js';
import { forwardUpgrade } from './upgrade.js';

// One request through the edge: site (421/503), client IP, checks, rule groups, origin.
// Everything a request needs from the configuration comes from the snapshot current when its
// head arrived.

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
}

const UNKNOWN_PEER: IpKey = { v: 4, n: 0, text: '0.0.0.0' };

export class RequestHandler {
  constructor(private readonly deps: HandlerDeps) {}

  /** Entry point for 'request' events; returns nothing, answers through res. */
  handle(req: IncomingMessage, res: ServerResponse, secure: boolean): void {
    const started = performance.now();
    const ctx = this.context(req, secure, res);
    if (!ctx) return;
    // res.socket is detached by the time 'close' fires on keep-alive connections: keep a reference.
    const socket = req.socket;
    const startBytes = socket.bytesWritten;
    const state = { blocked: false, upstreamTimeS: undefined as number | undefined };
    res.once('close', () => {
      this.deps.sink.access(accessEntry(ctx.edge, {
        status: res.statusCode, bytesSent: socket.bytesWritten - startBytes, blocked: state.blocked,
        requestTimeS: (performance.now() - started) / 1000, upstreamTimeS: state.upstreamTimeS,
      }));
    });
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

  /** Entry point for 'upgrade' events (WebSocket): the same checks, then a raw tunnel. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, secure: boolean): void {
    const ctx = this.context(req, secure, null, socket);
    if (!ctx) return;
    const { edge } = ctx;
    if (edge.site.status !== 'active') { rawPage(socket, page(503, edge.requestId)); return; }
    const proceed = (o: CheckOutcome) => {
      if (o?.kind === 'block') {
        this.deps.sink.waf(blockEvent(edge, o));
        const answer = blockPage(o, edge.site.blockResponse, edge.requestId);
        if (answer === 'drop') drop(socket); else rawPage(socket, answer);
        return;
      }
      if (o?.kind === 'interstitial') { rawPage(socket, o); return; }
      const tunnel = () => {
        const headers = originRequestHeaders(req.headers, { peer: ctx.peer.text, peerTrusted: this.deps.clientIps.isTrusted(ctx.peer), secure, requestId: edge.requestId });
        forwardUpgrade(edge.site, req, headers, socket, head, this.deps.connectTimeoutMs, () => rawPage(socket, page(502, edge.requestId)));
      };
      const { site } = edge;
      if (o?.kind === 'allow' || site.waf.mode === 'off') { tunnel(); return; }
      // The rule groups see the upgrade request's head (there is no body).
      const after = (v: Verdict | null) => {
        const blocked = !!v?.block && site.waf.mode === 'on';
        if (v) for (const m of v.matches) this.deps.sink.waf(ruleEvent(edge, m, blocked));
        if (!blocked) { tunnel(); return; }
        const answer = siteBlockPage(site.blockResponse, edge.requestId);
        if (answer === 'drop') drop(socket); else rawPage(socket, answer);
      };
      const view = { id: site.id, domain: site.domain, mode: site.waf.mode, paranoia: site.waf.paranoia } as const;
      try {
        const verdict = this.deps.inspector.inspect(inspected(edge, req, view, null));
        if (verdict instanceof Promise) verdict.then(after, () => rawPage(socket, page(502, edge.requestId))); else after(verdict);
      } catch { rawPage(socket, page(502, edge.requestId)); }
    };
    const outcome = this.deps.pipeline.run(edge);
    if (outcome instanceof Promise) outcome.then(proceed, () => rawPage(socket, page(502, edge.requestId)));
    else proceed(outcome);
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
    const edge: EdgeRequest = {
      requestId, receivedAt: Date.now(), method: req.method ?? 'GET', uri, path: normalizePath(uri),
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

  private inspectThenForward(edge: EdgeRequest, peer: IpKey, req: IncomingMessage, res: ServerResponse, state: { blocked: boolean; upstreamTimeS?: number }): void {
    const { site } = edge;
    if (site.waf.mode === 'off') { this.forward(edge, peer, req, res, null, state); return; }
    const view = { id: site.id, domain: site.domain, mode: site.waf.mode, paranoia: site.waf.paranoia } as const;
    const judge = (body: Buffer | null) => {
      let verdict: ReturnType<RequestInspector['inspect']>;
      try {
        verdict = this.deps.inspector.inspect(inspected(edge, req, view, body));
      } catch (err) { this.fail(edge, res, err); return; }
      const after = (v: Verdict | null) => {
        const blocked = !!v?.block && site.waf.mode === 'on';
        if (v) for (const m of v.matches) this.deps.sink.waf(ruleEvent(edge, m, blocked));
        if (!blocked && site.waf.mode === 'on' && v?.counters?.length) {
          checkRuleCounters(edge, v.counters, this.deps.counters).then((over) => {
            if (!over) { this.forward(edge, peer, req, res, body, state); return; }
            state.blocked = true;
            this.refuse(edge, over, req.socket, res);
          }, (err) => this.fail(edge, res, err));
          return;
        }
        if (!blocked) { this.forward(edge, peer, req, res, body, state); return; }
        state.blocked = true;
        const answer = siteBlockPage(site.blockResponse, edge.requestId);
        if (answer === 'drop') { res.statusCode = DROPPED_STATUS; drop(req.socket); } else sendPage(res, answer);
      };
      if (verdict instanceof Promise) verdict.then(after, (err) => this.fail(edge, res, err)); else after(verdict);
    };
    if (!this.deps.inspector.wantsBody(view) || !hasBody(req)) { judge(null); return; }
    readBody(req, this.deps.maxBodyBytes).then((body) => {
      if (body === 'too-large') {
        res.setHeader('connection', 'close');
        sendPage(res, page(413, edge.requestId));
        return;
      }
      judge(body);
    }, () => req.socket.destroy());
  }

  private forward(edge: EdgeRequest, peer: IpKey, req: IncomingMessage, res: ServerResponse, body: Buffer | null, state: { upstreamTimeS?: number }): void {
    const { site } = edge;
    const headers = originRequestHeaders(req.headers, { peer: peer.text, peerTrusted: this.deps.clientIps.isTrusted(peer), secure: edge.secure, requestId: edge.requestId });
    if (body) { headers['content-length'] = String(body.length); delete headers['transfer-encoding']; }
    const sentAt = performance.now();
    this.deps.pools.get(site).stream(
      { path: site.originBasePath + edge.uri, method: edge.method as 'GET', headers, body: body ?? (hasBody(req) ? req : null) },
      ({ statusCode, headers: up }) => {
        state.upstreamTimeS = (performance.now() - sentAt) / 1000;
        res.writeHead(statusCode, clientResponseHeaders(up, edge.requestId));
        return res;
      },
      (err) => {
        if (!err) return;
        if (!res.headersSent) sendPage(res, page(isTimeout(err) ? 504 : 502, edge.requestId));
        else res.destroy();
      },
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

function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

function isTimeout(err: Error): boolean {
  const code = (err as { code?: string }).code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) { req.removeAllListeners('data'); req.resume(); resolve('too-large'); return; }
      chunks.push(c);
    });
    req.on('end', () => { if (size <= max) resolve(Buffer.concat(chunks, size)); });
    req.on('error', reject);
  });
}

function inspected(edge: EdgeRequest, req: IncomingMessage, site: InspectedRequest['site'], body: Buffer | null): InspectedRequest {
  const raw = req.rawHeaders;
  const headers: Array<readonly [string, string]> = [];
  for (let i = 0; i < raw.length; i += 2) headers.push([raw[i], raw[i + 1]]);
  return {
    requestId: edge.requestId, method: edge.method, uri: edge.uri, protocol: `HTTP/${req.httpVersion}`, headers,
    clientAddr: edge.client.text, clientPort: req.socket.remotePort ?? 0,
    serverAddr: req.socket.localAddress ?? '', serverPort: req.socket.localPort ?? 0, body, site,
  };
}
