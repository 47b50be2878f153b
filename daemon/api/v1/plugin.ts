import type { FastifyInstance, FastifyReply } from 'fastify';
import { WafctlError } from '../../../shared/errors.js';
import { hasFeature, type FeatureKey } from '../../../shared/plans.js';
import type { StoredSite } from '../../../shared/schemas/site.js';
import { decide, rateLimitHeaders, type RateDecision } from '../rate-limit.js';
import { answerNotFound, sendError } from '../envelope.js';
import { authenticateSiteKey, presentedKey } from './auth.js';
import type { ManagementDependencies } from './dependencies.js';
import { geoRuleRoutes } from './routes/geo-rules.js';
import { ipRuleRoutes } from './routes/ip-rules.js';
import { pluginDialectRoutes } from './routes/plugin-dialect.js';
import { siteInfoRoutes } from './routes/site-info.js';
import { vulnerabilityRoutes } from './routes/vulnerabilities.js';
import { wafLogDetailRoutes } from './routes/waf-log-detail.js';

// The management API under /api/v1 (spec sections 4, 5, 7, 8). Per request: the global limit per
// client IP, the key, the per-key limit of the route's class, the plan feature, then the route.
// X-RateLimit-* go on every response, errors included. The server's envelope (api/envelope.ts:
// JSON parsing, 404/405, the error envelope of spec 2.1) must be installed before this plugin.

export const RATE_LIMITS = { read: 120, write: 30, globalPerIp: 300 } as const;
const BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    site?: StoredSite;
  }
  interface FastifyContextConfig {
    rateClass?: 'read' | 'write';
    feature?: FeatureKey;
  }
}

export async function managementApiPlugin(app: FastifyInstance, opts: { deps: ManagementDependencies }): Promise<void> {
  const { deps } = opts;
  // A management request body is small; the server's limit is sized for ingestion batches.
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= BODY_LIMIT;
  });

  app.addHook('onRequest', async (request, reply) => {
    const now = deps.now();
    const global = await decide(deps.counter, `api:ip:${request.ip}`, RATE_LIMITS.globalPerIp, now);
    reply.headers(rateLimitHeaders(global));
    if (!global.allowed) return tooMany(reply, global);

    const rateClass = request.routeOptions.config?.rateClass;
    if (rateClass === undefined) return; // unknown route: answered by the not-found handler below
    const site = authenticateSiteKey(presentedKey(request.headers), deps.findSiteByKeyHash);
    const perKey = await decide(deps.counter, `api:key:${site.key_hash}:${rateClass}`, RATE_LIMITS[rateClass], now);
    reply.headers(rateLimitHeaders(perKey));
    if (!perKey.allowed) return tooMany(reply, perKey);

    const feature = request.routeOptions.config?.feature;
    if (feature !== undefined && !(deps.hasFeature ?? hasFeature)(site.plan, feature)) {
      throw new WafctlError('feature_unavailable', `${feature} is not available on the ${site.plan} plan`);
    }
    request.site = site;
  });

  // In this context, so the hook above (global limit and its headers) runs for unknown paths too.
  answerNotFound(app);
  siteInfoRoutes(app, deps);
  wafLogDetailRoutes(app, deps);
  ipRuleRoutes(app, deps);
  geoRuleRoutes(app, deps);
  vulnerabilityRoutes(app, deps);
  pluginDialectRoutes(app, deps);
}

function tooMany(reply: FastifyReply, decision: RateDecision): FastifyReply {
  reply.header('retry-after', String(decision.retryAfterSeconds));
  if (decision.denied) return sendError(reply, 'rate_limit_exceeded', `Rate limits cannot be counted now (the cluster's shared counters are unusable); retry in ${decision.retryAfterSeconds} s`);
  return sendError(reply, 'rate_limit_exceeded', `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.retryAfterSeconds} s`);
}

