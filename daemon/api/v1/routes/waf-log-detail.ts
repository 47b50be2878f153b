import type { FastifyInstance } from 'fastify';
import { WafctlError } from '../../../../shared/errors.js';
import { WafRequestIdParamSchema } from '../../../../shared/schemas/waf-request.js';
import type { ManagementDependencies } from '../dependencies.js';
import { validate } from '../validate.js';
import { requestDetail } from '../waf-request-detail.js';

// GET /waf-logs/{id}: one request explained (`wafctl logs show`). Not in the spec's table (it is
// silent on it); same rate class and feature as GET /waf-logs. Unknown id: 404 not_found.
export function wafLogDetailRoutes(app: FastifyInstance, deps: ManagementDependencies): void {
  app.get('/waf-logs/:id', { config: { rateClass: 'read', feature: 'waf_protection' } }, async (request) => {
    const { id } = validate(WafRequestIdParamSchema, request.params, 'path');
    const site = request.site!;
    const key = /^\d+$/.test(id) ? { id: Number(id) } : { request_id: id.toLowerCase() };
    const { events, status } = await deps.wafRequest(site.id, key);
    if (events.length === 0) throw new WafctlError('not_found', `no WAF event of ${site.domain} has the id ${id}`);
    return { success: true, data: requestDetail(events, status, site.protection.waf.inbound_threshold) };
  });
}
