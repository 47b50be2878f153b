import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { WafctlError } from '../../../../shared/errors.js';
import { DeleteIpRuleBodySchema } from '../../../../shared/schemas/management-api.js';
import type { ManagementDependencies } from '../dependencies.js';
import { presentedKey } from '../auth.js';
import { validate } from '../validate.js';
import { removeIpRuleAnswer } from './ip-rules.js';
import { siteInfo } from './site-info.js';

// The older dialect of the Atomic Edge WordPress plugin 1.2.0 (README "The WordPress plugin's
// dialect"), as aliases over the spec's handlers: the same key check (the plugin hook), the same
// rate class and plan feature, the same answers and errors. The spec's own paths are unchanged.
// The X-AtomicEdge-Key header is read by auth.ts; the vulnerability-check fields by vulnerabilities.ts.

/** What the plugin posts to connect: its key again, and its home URL without scheme and www. */
const ConnectBodySchema = z
  .object({
    api_key: z.string({ error: 'must be a string' }).optional(),
    site_url: z.string({ error: 'must be a string' }).max(2048, { error: 'must be at most 2048 characters' }).optional(),
  })
  .optional();

export function pluginDialectRoutes(app: FastifyInstance, deps: ManagementDependencies): void {
  // POST /connect answers as GET /connect. The key in the body must be the key in the header (the
  // plugin sends both): a body naming another key is refused, never used to pick a site. site_url
  // is accepted and not compared with the domain: WordPress reports its home URL (a subdirectory,
  // a port, a staging host behind the edge), which need not be a name the edge serves.
  app.post('/connect', { config: { rateClass: 'read' } }, async (request) => {
    const body = validate(ConnectBodySchema, request.body, 'body');
    const headerKey = presentedKey(request.headers);
    const sent = Array.isArray(headerKey) ? headerKey[0] : headerKey;
    if (body?.api_key !== undefined && body.api_key !== sent) {
      throw new WafctlError('invalid_api_key', 'api_key in the body is not the key in the X-AtomicEdge-Key (or X-Service-Key) header');
    }
    return { success: true, data: siteInfo(request.site!) };
  });

  // DELETE /access/ip/{type}/{ip} (ip URL-encoded, no body) is DELETE /ip-rules with {ip, type}.
  app.delete<{ Params: { type: string; ip: string } }>(
    '/access/ip/:type/:ip',
    { config: { rateClass: 'write', feature: 'ip_access_control' } },
    async (request) => {
      const { type, ip } = request.params;
      return removeIpRuleAnswer(deps, request.site!, validate(DeleteIpRuleBodySchema, { type, ip }, 'body'));
    },
  );
}
