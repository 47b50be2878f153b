import { once } from 'node:events';
import type { Server as NetServer } from 'node:net';
import type { Server as HttpsServer } from 'node:https';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { MODERN_TLS } from '../proxy/hardening/tls-policy.js';
import type { ApiTls } from '../tls/api-tls.js';
import { ENVELOPE_SERVER_OPTIONS, installEnvelope } from './envelope.js';
import { createHttpsOnlyListener } from './plain-http-guard.js';

// The API listener (:9443): fastify over HTTPS behind the plain-HTTP guard. It serves the management
// API (/api/v1) and ingestion (/api/vector); those modules plug in through
// `register`. With no routes every path is 404 not_found in the envelope.

export type RegisterRoutes = (app: FastifyInstance) => void | Promise<void>;

export interface ApiServer {
  readonly app: FastifyInstance;
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting, lets in-flight requests finish for up to `drainMs`, then closes what is left. */
  close(drainMs: number): Promise<void>;
}

/** Slow clients on the API port: a TLS handshake and a request head must each complete in time. */
export interface ApiTimeouts {
  /** TLS handshake after the first byte (node's default: 120 s). */
  handshakeMs: number;
  /** Request head once the handshake is done (node's default: 60 s); 408 and closed. */
  headersMs: number;
}

export const DEFAULT_API_TIMEOUTS: ApiTimeouts = { handshakeMs: 10_000, headersMs: 20_000 };

export async function createApiServer(options: { tls: ApiTls; logger: Logger; register?: RegisterRoutes[]; timeouts?: Partial<ApiTimeouts> }): Promise<ApiServer> {
  const timeouts = { ...DEFAULT_API_TIMEOUTS, ...options.timeouts };
  // Typed as the default instance: routes do not care that the raw server is https.
  const app = Fastify({
    // TLS 1.2+ with forward-secret AEAD suites only (the edge uses the same policy), and the same
    // slowloris bounds as the edge (node checks heads a quarter of the timeout apart, at most 1 s).
    https: {
      cert: options.tls.cert, key: options.tls.key, ...MODERN_TLS,
      handshakeTimeout: timeouts.handshakeMs,
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
    },
    loggerInstance: options.logger.child({ listener: 'api' }),
    bodyLimit: 10 * 1024 * 1024,
    return503OnClosing: true,
    ...ENVELOPE_SERVER_OPTIONS,
  }) as unknown as FastifyInstance;
  installEnvelope(app);
  for (const register of options.register ?? []) await register(app);
  await app.ready();
  const https = app.server as HttpsServer;
  const guard = createHttpsOnlyListener(https);
  return {
    app,
    async listen(port, host) {
      guard.listen(port, host);
      await Promise.race([once(guard, 'listening'), once(guard, 'error').then(([error]) => { throw error; })]);
      // The HTTPS server never listens itself (the guard hands it its connections), and node starts the
      // checks behind headersTimeout on 'listening': without this the API had no header timeout at all.
      https.emit('listening');
      return (guard.address() as { port: number }).port;
    },
    close: (drainMs) => closeGracefully(guard, https, app, drainMs),
  };
}

async function closeGracefully(guard: NetServer, https: HttpsServer, app: FastifyInstance, drainMs: number): Promise<void> {
  const guardClosed = guard.listening ? new Promise<void>((resolve) => guard.close(() => resolve())) : Promise.resolve();
  https.closeIdleConnections();
  // Keep-alive sockets that become idle after their last response are closed as they go idle.
  const sweep = setInterval(() => https.closeIdleConnections(), 50);
  const timer = setTimeout(() => {
    https.closeAllConnections();
    guard.getConnections(() => undefined);
  }, drainMs);
  await guardClosed;
  clearInterval(sweep);
  clearTimeout(timer);
  await app.close();
}
