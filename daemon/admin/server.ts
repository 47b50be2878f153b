import { chmod, lstat, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ENVELOPE_SERVER_OPTIONS, installEnvelope } from '../api/envelope.js';
import type { AdminDependencies } from './dependencies.js';
import { accountRoutes } from './routes/account.js';
import { daemonRoutes } from './routes/daemon.js';
import { protectionRoutes } from './routes/protection.js';
import { rulesRoutes } from './routes/rules.js';
import { siteRoutes } from './routes/sites.js';

// The admin socket: the local "dashboard" (DESIGN.md section 1), fastify on a unix socket in the
// data dir. Access is by file permission (0600, like Docker's socket), so there is no other auth.

/** Linux's limit for sun_path, less the terminating NUL. */
export const MAX_SOCKET_PATH = 107;

export type RegisterAdminRoutes = (app: FastifyInstance) => void | Promise<void>;

export interface AdminServer {
  readonly app: FastifyInstance;
  listen(): Promise<void>;
  close(): Promise<void>;
}

export class AdminSocketError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminSocketError';
  }
}

export async function createAdminServer(options: {
  socketPath: string;
  logger: Logger;
  deps: AdminDependencies;
  /** Later issues add their admin routes here (protection, rules, vulndb). */
  register?: RegisterAdminRoutes[];
}): Promise<AdminServer> {
  const { socketPath } = options;
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new AdminSocketError(`admin socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} bytes; use --admin-socket with a shorter path`);
  }
  const app = Fastify({
    loggerInstance: options.logger.child({ listener: 'admin' }),
    bodyLimit: 1024 * 1024,
    // A :domain parameter may be a 253-character host name (fastify's default stops at 100).
    routerOptions: { maxParamLength: 512 },
    ...ENVELOPE_SERVER_OPTIONS,
  }) as unknown as FastifyInstance;
  installEnvelope(app);
  daemonRoutes(app, options.deps);
  siteRoutes(app, options.deps);
  accountRoutes(app, options.deps);
  protectionRoutes(app, options.deps);
  rulesRoutes(app, options.deps);
  for (const register of options.register ?? []) await register(app);
  await app.ready();
  let listening = false;

  return {
    app,
    async listen() {
      const dir = dirname(socketPath);
      if (!(await stat(dir).then((info) => info.isDirectory(), () => false))) {
        throw new AdminSocketError(`admin socket ${socketPath} cannot be created: ${dir} is not a directory`);
      }
      await removeStaleSocket(socketPath);
      try {
        await app.listen({ path: socketPath });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new AdminSocketError(`admin socket ${socketPath} cannot be created: ${code === 'EACCES' ? 'permission denied' : code ?? (error as Error).message}`);
      }
      listening = true;
      await chmod(socketPath, 0o600);
    },
    async close() {
      await app.close(); // fastify removes the socket file when it closes a path listener
      // Only our own socket: after a failed listen the path may be another daemon's.
      if (listening) await unlink(socketPath).catch(() => undefined);
    },
  };
}

// Reached while holding the data-dir lock, so a socket file left here normally belongs to a daemon
// that died. But --admin-socket can point outside the data dir, at a path another daemon (another
// data dir) listens on: a socket that still answers is never removed. A non-socket is not touched.
async function removeStaleSocket(path: string): Promise<void> {
  let info;
  try {
    info = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!info.isSocket()) throw new AdminSocketError(`admin socket path ${path} exists and is not a socket; move it away`);
  if (await answers(path)) throw new AdminSocketError(`admin socket ${path} is in use by another running daemon (choose another with --admin-socket)`);
  await unlink(path);
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
