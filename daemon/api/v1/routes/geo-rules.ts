import type { FastifyInstance } from 'fastify';
import { WafctlError } from '../../../../shared/errors.js';
import { PutGeoRulesBodySchema } from '../../../../shared/schemas/management-api.js';
import type { ManagementDependencies } from '../dependencies.js';
import { replaceGeoRules } from '../geo-rule-ops.js';
import { validate } from '../validate.js';

// GET /geo-rules (404 no_settings until first set), PUT /geo-rules (replaces the setting).
export function geoRuleRoutes(app: FastifyInstance, deps: ManagementDependencies): void {
  const feature = 'geo_blocking';

  app.get('/geo-rules', { config: { rateClass: 'read', feature } }, async (request) => {
    const rules = request.site!.geo_rules;
    if (rules === null) throw new WafctlError('no_settings', 'Geo rules have not been configured for this site');
    return { success: true, data: rules };
  });

  app.put('/geo-rules', { config: { rateClass: 'write', feature } }, async (request) => {
    const body = validate(PutGeoRulesBodySchema, request.body, 'body');
    const data = await deps.updateSite(request.site!.id, (site) => {
      site.geo_rules = replaceGeoRules(site.geo_rules, body, site.plan);
      return site.geo_rules;
    });
    return { success: true, message: data.enabled ? `Geo rules saved (${data.mode})` : 'Geo blocking disabled', data };
  });
}
