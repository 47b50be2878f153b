import type { FastifyInstance } from 'fastify';
import { PLAN_FEATURES } from '../../../../shared/plans.js';
import type { SiteInfo } from '../../../../shared/schemas/management-api.js';
import type { StoredSite } from '../../../../shared/schemas/site.js';
import { AnalyticsQuerySchema, WafLogsQuerySchema } from '../../../../shared/schemas/management-api.js';
import { TOP_LIMIT_DEFAULT } from '../../../../shared/schemas/top-lists.js';
import type { ManagementDependencies } from '../dependencies.js';
import { validate } from '../validate.js';

// GET /connect, /analytics (with `top`: also a top list, see daemon/api/v1/ROUTES.md), /waf-logs:
// what a client reads about its site.
export function siteInfoRoutes(app: FastifyInstance, deps: ManagementDependencies): void {
  app.get('/connect', { config: { rateClass: 'read' } }, async (request) => ({ success: true, data: siteInfo(request.site!) }));

  app.get('/analytics', { config: { rateClass: 'read', feature: 'analytics' } }, async (request) => {
    const { period, top, limit } = validate(AnalyticsQuerySchema, request.query, 'query');
    const at = new Date(deps.now());
    const analytics = await deps.analytics(request.site!.id, period, at);
    if (top === undefined) return { success: true, data: analytics };
    // Same `at` for both: the totals and the top list cover the same hours.
    return { success: true, data: { ...analytics, top: await deps.topList(request.site!.id, period, top, limit ?? TOP_LIMIT_DEFAULT, at) } };
  });

  app.get('/waf-logs', { config: { rateClass: 'read', feature: 'waf_protection' } }, async (request) => {
    const query = validate(WafLogsQuerySchema, request.query, 'query');
    return { success: true, data: await deps.wafLogs(request.site!.id, query, new Date(deps.now())) };
  });
}

/** The answer of GET /connect (and of the plugin dialect's POST /connect). */
export function siteInfo(site: StoredSite): SiteInfo {
  return {
    connected: true,
    site_id: site.id,
    domain: site.domain,
    plan_tier: site.plan,
    plan: site.plan,
    waf_enabled: site.protection.waf.mode !== 'off',
    features: { ...PLAN_FEATURES[site.plan] },
  };
}
