import type { IncomingMessage } from 'node:http';
import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkRuleCounters } from './checks/rule-counters.js';
import type { Block, CheckOutcome, Interstitial } from './checks/outcome.js';
import type { EdgeRequest } from './edge-request.js';
import { accessEntry, blockEvent, ruleEvent } from './edge-events.js';
import { originRequestHeaders } from './forward-headers.js';
import { engineFailure, reportEngineFailure } from './hardening/engine-failure.js';
import { inspectedRequest, siteView } from './inspected-request.js';
import type { Verdict } from './inspector.js';
import type { IpKey } from './ip-set.js';
import { page, type Page } from './pages.js';
import type { HandlerDeps } from './request-handler.js';
import { blockPage, DROPPED_STATUS, drop, siteBlockPage, writeRawPage } from './respond.js';
import { openTunnel } from './tunnel.js';
import { askOrigin, relayAnswer, switchingHead } from './upgrade.js';
import { readUpgradeBody, upgradeHasBody } from './upgrade-body.js';
import { tunnelUpgrade, upgradeIgnoredEvent } from './upgrade-protocol.js';

// One upgrade request (Connection: upgrade + Upgrade), from its head to the tunnel or the last
// response on its connection. It goes the way every request goes: site, checks, body read and
// inspected by the rule groups (with the same events, rule counters and engine-failure policy as
// request-handler.ts), then the origin. Only the origin's 101 opens the tunnel; any other answer
// is relayed and the connection closed, with whatever the client pipelined behind the request
// dropped unread (the edge cannot hand the raw socket back to node's HTTP parser, and a browser
// never pipelines behind an upgrade: only an attack would). An Upgrade offering an HTTP-carrying
// protocol (h2c) is served as a plain request (upgrade-protocol.ts). The client socket is paused
// on entry, so no byte after the head is read before the edge decides what it is.
//
// The request holds an in-flight slot until its tunnel opens or it ends; the access entry is
// written when the client connection closes (status 101 for a tunnel, bytes for its lifetime).

/** How long a closed exchange waits for the client to read the answer before the socket goes. */
const LINGER_MS = 1_000;
/** Logged when the client left before any answer (nginx's 499). */
const CLIENT_CLOSED_STATUS = 499;

export class UpgradeExchange {
  private status = CLIENT_CLOSED_STATUS;
  private blocked = false;
  private upstreamTimeS: number | undefined;
  private holdsSlot = true;
  private abandonOrigin: (() => void) | null = null;
  private body: Buffer | null = null;
  private readonly upgrade: string | null;
  private readonly started = performance.now();

  constructor(
    private readonly deps: HandlerDeps,
    private readonly edge: EdgeRequest,
    private readonly peer: IpKey,
    private readonly req: IncomingMessage,
    private readonly socket: net.Socket,
  ) {
    this.upgrade = tunnelUpgrade(req.headers.upgrade);
    const startBytes = socket.bytesWritten;
    socket.once('close', () => {
      this.releaseSlot();
      this.abandonOrigin?.();
      deps.sink.access(accessEntry(edge, {
        status: this.status, bytesSent: socket.bytesWritten - startBytes, blocked: this.blocked,
        requestTimeS: (performance.now() - this.started) / 1000, upstreamTimeS: this.upstreamTimeS,
      }));
    });
  }

  start(): void {
    const { edge } = this;
    if (edge.site.status !== 'active') { this.answer(page(503, edge.requestId)); return; }
    if (this.upgrade === null) this.deps.sink.waf(upgradeIgnoredEvent(edge, this.req.headers.upgrade ?? ''));
    const outcome = this.deps.pipeline.run(edge);
    if (outcome instanceof Promise) outcome.then((o) => this.checked(o), () => this.answer(page(502, edge.requestId)));
    else this.checked(outcome);
  }

  private checked(o: CheckOutcome): void {
    if (this.socket.destroyed) return;
    if (o?.kind === 'block') { this.refuse(o); return; }
    if (o?.kind === 'interstitial') { this.answer(o); return; }
    const { req, socket, deps, edge } = this;
    // The body is read whatever the checks said: it is re-framed towards the origin, never passed raw.
    // A client that waits for 100 Continue gets it from the edge, as node's server does for other requests.
    if (req.httpVersionMinor === 1 && req.headers.expect?.toLowerCase() === '100-continue' && upgradeHasBody(req)) socket.write('HTTP/1.1 100 Continue\r\n\r\n');
    readUpgradeBody(req, socket, deps.maxBodyBytes, deps.limits.bodyIdleTimeoutMs).then((read) => {
      if (read.kind === 'gone') { socket.destroy(); return; }
      if (read.kind === 'over') { this.answer(page(413, edge.requestId)); return; }
      if (read.kind === 'bad') { this.answer(page(400, edge.requestId)); return; }
      if (read.kind === 'idle') { this.answer(page(408, edge.requestId)); return; }
      this.body = read.body;
      if (o?.kind === 'allow' || edge.site.waf.mode === 'off') this.forward();
      else this.inspect();
    });
  }

  private inspect(): void {
    const { site } = this.edge;
    const view = siteView(site);
    const seen = this.deps.inspector.wantsBody(view) ? this.body : null;
    try {
      const verdict = this.deps.inspector.inspect(inspectedRequest(this.edge, this.req, view, seen));
      if (verdict instanceof Promise) verdict.then((v) => this.judged(v), (err) => this.engineFailed(err));
      else this.judged(verdict);
    } catch (err) { this.engineFailed(err); }
  }

  private judged(v: Verdict | null): void {
    const { edge, deps } = this;
    const { site } = edge;
    const blocked = !!v?.block && site.waf.mode === 'on';
    if (v) for (const m of v.matches) deps.sink.waf(ruleEvent(edge, m, blocked));
    if (blocked) { this.blocked = true; this.send(siteBlockPage(site.blockResponse, edge.requestId)); return; }
    if (site.waf.mode === 'on' && v?.counters?.length) {
      checkRuleCounters(edge, v.counters, deps.counters).then(
        (over) => { if (over) this.refuse(over); else this.forward(); },
        () => this.answer(page(502, edge.requestId)),
      );
      return;
    }
    this.forward();
  }

  /** The engine gave no verdict: over the time budget, refused like a block; another failure is
   *  the site's waf.onError's (hardening/engine-failure.ts, as for any request). */
  private engineFailed(err: unknown): void {
    const { edge } = this;
    const failure = engineFailure(edge, err);
    reportEngineFailure(edge.requestId, failure, err);
    this.deps.sink.waf(failure.event);
    if (failure.kind === 'forward') { this.forward(); return; }
    this.blocked = true;
    if (failure.kind === 'error') this.answer(page(500, edge.requestId));
    else this.send(siteBlockPage(edge.site.blockResponse, edge.requestId));
  }

  private forward(): void {
    const { edge, req, socket, deps, body } = this;
    if (socket.destroyed) return;
    const headers = originRequestHeaders(req.headers, {
      peer: this.peer.text, peerTrusted: deps.clientIps.isTrusted(this.peer), secure: edge.secure, requestId: edge.requestId,
      bufferedLength: body ? body.length : undefined,
    });
    const sentAt = performance.now();
    const timeouts = { connectMs: deps.connectTimeoutMs, idleMs: deps.limits.tunnelIdleTimeoutMs };
    this.abandonOrigin = askOrigin(edge.site, { method: edge.method, path: edge.site.originBasePath + edge.uri, headers, body, upgrade: this.upgrade }, timeouts, {
      switched: (res, upstream, head) => {
        this.upstreamTimeS = (performance.now() - sentAt) / 1000;
        this.abandonOrigin = null;
        // Only a tunnel that was asked for, to a protocol that does not carry HTTP.
        if (this.upgrade === null || tunnelUpgrade(res.headers.upgrade) === null) {
          upstream.destroy();
          this.answer(page(502, edge.requestId));
          return;
        }
        this.status = 101;
        this.releaseSlot();
        socket.write(switchingHead(res, edge.requestId), 'latin1');
        if (head.length) socket.write(head);
        openTunnel(socket, upstream, deps.limits.tunnelIdleTimeoutMs);
      },
      answered: (res) => {
        this.upstreamTimeS = (performance.now() - sentAt) / 1000;
        this.status = res.statusCode ?? 502;
        socket.resume(); // what the client sent after the request is read and dropped
        relayAnswer(res, socket, edge.requestId, () => this.linger());
      },
      failed: (timeout) => this.answer(page(timeout ? 504 : 502, edge.requestId)),
    });
  }

  private refuse(block: Block): void {
    this.blocked = true;
    this.deps.sink.waf(blockEvent(this.edge, block));
    this.send(blockPage(block, this.edge.site.blockResponse, this.edge.requestId));
  }

  private send(answer: Page | 'drop'): void {
    if (answer !== 'drop') { this.answer(answer); return; }
    this.status = DROPPED_STATUS;
    drop(this.socket);
  }

  /** The edge's own answer, the last on this connection; the client's further bytes are dropped. */
  private answer(p: Page | Interstitial): void {
    const { socket } = this;
    if (socket.destroyed) return;
    this.status = p.status;
    socket.resume();
    writeRawPage(socket, p);
    socket.once('finish', () => this.linger());
  }

  private linger(): void {
    setTimeout(() => this.socket.destroy(), LINGER_MS).unref();
  }

  private releaseSlot(): void {
    if (!this.holdsSlot) return;
    this.holdsSlot = false;
    this.deps.shedder.release();
  }
}
