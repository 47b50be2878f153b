import type { FastifyInstance } from 'fastify';
import { WafctlError } from '../../../shared/errors.js';
import type { AdminDependencies } from '../dependencies.js';

// The daemon itself on the admin socket: status, reload (all, or the Core Rule Set alone), shutdown (ROUTES.md).

export function daemonRoutes(app: FastifyInstance, deps: AdminDependencies): void {
  app.get('/admin/status', async () => ({ success: true, data: deps.status() }));

  app.post('/admin/reload', async (request) => {
    const result = await deps.reload();
    if (!result.ok) throw new WafctlError('config_invalid', result.message);
    request.log.info('configuration reloaded');
    return { success: true, data: { reloaded: true, ...('crs' in result && result.crs ? { crs: result.crs } : {}) } };
  });

  // `wafctl crs plugin add|remove` (and anything else that changes only the rules): config.json is not re-read.
  app.post('/admin/crs/reload', async (request) => {
    if (!deps.reloadCrs) throw new WafctlError('not_found', 'this daemon cannot switch its Core Rule Set; restart it');
    const crs = await deps.reloadCrs();
    request.log.info({ crs }, 'Core Rule Set reloaded');
    return { success: true, data: { crs } };
  });

  app.post('/admin/shutdown', async (_request, reply) => {
    // Answer first; the stop begins once the response is on the wire.
    reply.raw.once('finish', () => deps.requestShutdown('admin shutdown'));
    return { success: true, data: { stopping: true } };
  });
}
