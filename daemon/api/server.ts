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
// API (/api/v1, issue 4) and ingestion (/api/vector, issue 5); those modules plug in through
// `register`. With no routes every path is 404 not_found in the envelope.

export type RegisterRoutes = (app: FastifyInstance) => void | Promise<void>;

export interface ApiServer {
  readonly app: FastifyInstance;
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting, lets in-flight requests finish for up to `drainMs`, then closes what is left. */
  close(drainMs: number): Promise<void>;
}

export async function createApiServer(options: { tls: ApiTls; logger: Logger; register?: RegisterRoutes[] }): Promise<ApiServer> {
  // Typed as the default instance: routes do not care that the raw server is https.
  const app = Fastify({
    // TLS 1.2+ with forward-secret AEAD suites only (the edge uses the same policy).
    https: { cert: options.tls.cert, key: options.tls.key, ...MODERN_TLS },
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
