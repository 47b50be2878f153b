import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { BanLookup } from '../bans/ban-table.js';
import { MemoryCounterStore, type CounterStore } from '../store/counter-store.js';
import { BotGuard } from './checks/bot.js';
import { CrawlerVerifier, type DnsResolver } from './checks/bot/crawler-verifier.js';
import { JsChallenge } from './checks/bot/js-challenge.js';
import { UserAgentClassifier } from './checks/bot/user-agent-class.js';
import { ClientIpResolver } from './client-ip.js';
import { DISCARD_EVENTS, type EventSink } from './events.js';
import { applyServerLimits, edgeLimits, httpServerOptions, type EdgeLimits } from './hardening/edge-limits.js';
import { LoadShedder, type ShedderStats } from './hardening/load-shedder.js';
import { UnparsedRequests } from './hardening/unparsed-requests.js';
import { ALLOW_ALL, type RequestInspector } from './inspector.js';
import { DEFAULT_TIMEOUTS, OriginPools, type OriginTimeouts } from './origin-pools.js';
import { CheckPipeline } from './pipeline.js';
import { RequestHandler } from './request-handler.js';
import { MODERN_TLS as EDGE_TLS } from './hardening/tls-policy.js';
import type { EdgeSnapshot } from './snapshot.js';

// The edge listener: node:http on the edge port, node:https on the TLS port with the
// certificate chosen per site by SNI. Built on node:http + undici directly (no framework) to
// keep the per-request cost near a bare proxy's.

export interface EdgeOptions {
  snapshot: EdgeSnapshot;
  sink?: EventSink;
  inspector?: RequestInspector;
  counters?: CounterStore;
  /** The live bans (daemon/bans/): the primary's table, or a worker's copy of it. */
  bans?: BanLookup;
  /** CIDRs whose X-Forwarded-For / X-Forwarded-Proto are believed (--trusted-proxy). */
  trustedProxies?: readonly string[];
  timeouts?: Partial<OriginTimeouts>;
  /** Largest request body buffered for the WAF (default 13 MiB, CRS's SecRequestBodyLimit); more: 413. */
  maxBodyBytes?: number;
  /** HMAC key of the JS challenge; the same in every worker. */
  challengeSecret?: Buffer | string;
  challengeBits?: number;
  dnsResolver?: DnsResolver;
  dnsTimeoutMs?: number;
  /** Certificate for TLS handshakes whose SNI names no site with a certificate (and no default site has one). */
  fallbackTls?: { cert: string; key: string };
  connectionsPerOrigin?: number;
  /** Idle keep-alive time of client connections (default 65 s). */
  keepAliveTimeoutMs?: number;
  /** Protocol limits, slow-client timeouts and load shedding (hardening/edge-limits.ts); defaults like nginx. */
  limits?: Partial<EdgeLimits>;
}

export interface ListenSpec {
  port: number;
  host?: string;
}

export class Edge {
  private current: EdgeSnapshot;
  private readonly pools: OriginPools;
  private readonly handler: RequestHandler;
  private readonly servers: Array<http.Server | https.Server> = [];
  private readonly fallbackContext: tls.SecureContext | null;
  /** Upgraded (WebSocket) connections: the servers no longer track them, close() must. */
  private readonly tunnels = new Set<Duplex>();
  private readonly limits: EdgeLimits;
  private readonly shedder: LoadShedder;
  private readonly unparsed: UnparsedRequests;

  constructor(private readonly options: EdgeOptions) {
    this.current = options.snapshot;
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.pools = new OriginPools(timeouts, options.connectionsPerOrigin);
    const bots = new BotGuard(
      new UserAgentClassifier(),
      new CrawlerVerifier({ resolver: options.dnsResolver, timeoutMs: options.dnsTimeoutMs }),
      new JsChallenge({ secret: options.challengeSecret, bits: options.challengeBits }),
    );
    const counters = options.counters ?? new MemoryCounterStore();
    this.limits = edgeLimits(options.limits);
    this.shedder = new LoadShedder(this.limits);
    const clientIps = new ClientIpResolver(options.trustedProxies);
    this.unparsed = new UnparsedRequests({ snapshot: () => this.current, clientIps, sink: options.sink ?? DISCARD_EVENTS, inspector: options.inspector ?? ALLOW_ALL, limits: this.limits });
    this.handler = new RequestHandler({
      counters,
      snapshot: () => this.current,
      clientIps,
      pipeline: new CheckPipeline(counters, bots, options.bans),
      inspector: options.inspector ?? ALLOW_ALL,
      pools: this.pools,
      sink: options.sink ?? DISCARD_EVENTS,
      maxBodyBytes: options.maxBodyBytes ?? 13 * 1024 * 1024,
      connectTimeoutMs: timeouts.connectMs,
      limits: this.limits,
      shedder: this.shedder,
      protocolRefused: (req, socket, requestId, status, reason) => this.unparsed.protocolRefused(req, socket, requestId, status, reason),
    });
    this.fallbackContext = options.fallbackTls ? tls.createSecureContext({ ...options.fallbackTls, ...EDGE_TLS }) : null;
  }

  get snapshot(): EdgeSnapshot {
    return this.current;
  }

  /** Requests admitted and shed so far in this process, and the current load signals. */
  loadStats(): ShedderStats {
    return this.shedder.stats();
  }

  /** Client connections open on all listeners (upgraded tunnels included). */
  async openConnections(): Promise<number> {
    const counts = await Promise.all(this.servers.map((s) => new Promise<number>((resolve) => s.getConnections((_e, n) => resolve(n ?? 0)))));
    return counts.reduce((a, b) => a + b, this.tunnels.size);
  }

  /** Applies to every request whose head arrives after this call; open connections stay open. */
  setSnapshot(next: EdgeSnapshot): void {
    this.current = next;
    this.pools.retainOnly(next);
  }

  /** Starts the plain HTTP listener; resolves with the bound port. */
  listenHttp(spec: ListenSpec): Promise<number> {
    const server = http.createServer({ ...httpServerOptions(this.limits), keepAliveTimeout: this.options.keepAliveTimeoutMs ?? 65_000 });
    server.on('request', (req, res) => this.handler.handle(req, res, false));
    server.on('upgrade', (req, socket, head) => this.handler.upgrade(req, this.track(socket), head, false));
    this.answerUnparsed(server);
    return this.start(server, spec);
  }

  /** Starts the HTTPS listener (SNI per site); resolves with the bound port. */
  listenHttps(spec: ListenSpec): Promise<number> {
    const server = https.createServer({
      ...httpServerOptions(this.limits),
      ...EDGE_TLS,
      keepAliveTimeout: this.options.keepAliveTimeoutMs ?? 65_000,
      SNICallback: (servername, cb) => {
        const ctx = this.current.secureContextFor(servername) ?? this.fallbackContext;
        if (ctx) cb(null, ctx); else cb(new Error(`no certificate for ${servername}`));
      },
      // Handshakes without SNI (clients connecting by address) get the default site's or the fallback certificate.
      ...this.noSniCertificate(),
    });
    server.on('request', (req, res) => this.handler.handle(req, res, true));
    server.on('upgrade', (req, socket, head) => this.handler.upgrade(req, this.track(socket), head, true));
    this.answerUnparsed(server);
    return this.start(server, spec);
  }

  /** Stops accepting; in-flight requests get up to drainMs to finish, then every connection is closed. */
  async close(drainMs = 0): Promise<void> {
    this.shedder.stop();
    for (const t of this.tunnels) t.destroy();
    await Promise.all(this.servers.map((s) => new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeIdleConnections();
      const timer = setTimeout(() => s.closeAllConnections(), drainMs);
      timer.unref();
      s.once('close', () => clearTimeout(timer));
    })));
    this.servers.length = 0;
    await this.pools.closeAll();
  }

  private track(socket: Duplex): Duplex {
    this.tunnels.add(socket);
    socket.once('close', () => this.tunnels.delete(socket));
    return socket;
  }

  /** What node answers without a 'request' event: parser refusals and CONNECT (hardening/unparsed-requests.ts). */
  private answerUnparsed(server: http.Server | https.Server): void {
    server.on('clientError', (err, socket) => this.unparsed.clientError(err, socket));
    // CONNECT sockets leave the server's connection tracking: close() must reach them like tunnels.
    server.on('connect', (req, socket) => this.unparsed.connect(req, this.track(socket)));
  }

  private noSniCertificate(): { cert?: string; key?: string } {
    return this.options.fallbackTls ? { cert: this.options.fallbackTls.cert, key: this.options.fallbackTls.key } : {};
  }

  private start(server: http.Server | https.Server, spec: ListenSpec): Promise<number> {
    applyServerLimits(server, this.limits);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: spec.port, host: spec.host ?? '::', backlog: 4096 }, () => {
        server.off('error', reject);
        this.servers.push(server);
        resolve((server.address() as AddressInfo).port);
      });
    });
  }
}
