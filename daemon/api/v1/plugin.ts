import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { errorBody, WafctlError, type ErrorCode } from '../../../shared/errors.js';
import { hasFeature, type FeatureKey } from '../../../shared/plans.js';
import type { StoredSite } from '../../../shared/schemas/site.js';
import { decide, rateLimitHeaders, type RateDecision } from '../../rate-limit/fixed-window.js';
import { authenticateSiteKey } from './auth.js';
import type { ManagementDependencies } from './dependencies.js';
import { geoRuleRoutes } from './routes/geo-rules.js';
import { ipRuleRoutes } from './routes/ip-rules.js';
import { siteInfoRoutes } from './routes/site-info.js';
import { vulnerabilityRoutes } from './routes/vulnerabilities.js';

// The management API under /api/v1 (spec sections 4, 5, 7, 8). Per request: the global limit per
// client IP, the key, the per-key limit of the route's class, the plan feature, then the route.
// X-RateLimit-* go on every response, errors included; every error is the envelope of spec 2.1.

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
  const knownPaths = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const path = route.url.replace(/\/$/, '');
    const set = knownPaths.get(path) ?? new Set<string>();
    for (const method of methods) set.add(method);
    knownPaths.set(path, set);
  });

  // Clients send Content-Type: application/json on every request, sometimes with no body (GET,
  // DELETE): an empty body is no body. Prototype-poisoning keys are refused, never merged.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, text, done) => {
    if ((text as string).trim() === '') return done(null, undefined);
    try {
      done(null, secureJsonParse.parse(text as string, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new WafctlError('bad_request', 'The body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const now = deps.now();
    const global = decide(deps.counter, `api:ip:${request.ip}`, RATE_LIMITS.globalPerIp, now);
    reply.headers(rateLimitHeaders(global));
    if (!global.allowed) return tooMany(reply, global);

    const rateClass = request.routeOptions.config?.rateClass;
    if (rateClass === undefined) return; // unknown route: answered by the not-found handler
    const site = authenticateSiteKey(request.headers['x-service-key'], deps.findSiteByKeyHash);
    const perKey = decide(deps.counter, `api:key:${site.key_hash}:${rateClass}`, RATE_LIMITS[rateClass], now);
    reply.headers(rateLimitHeaders(perKey));
    if (!perKey.allowed) return tooMany(reply, perKey);

    const feature = request.routeOptions.config?.feature;
    if (feature !== undefined && !(deps.hasFeature ?? hasFeature)(site.plan, feature)) {
      throw new WafctlError('feature_unavailable', `${feature} is not available on the ${site.plan} plan`);
    }
    request.site = site;
  });

  app.setErrorHandler((error: FastifyError | WafctlError, request, reply) => {
    if (error instanceof WafctlError) return send(reply, error.code, error.message);
    const fastifyCode = (error as FastifyError).code;
    if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 'payload_too_large');
    if (fastifyCode === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 'unsupported_media_type');
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) return send(reply, 'bad_request', error.message);
    request.log.error({ err: error }, 'management API request failed');
    return send(reply, 'internal_error');
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0].replace(/\/$/, '');
    if (knownPaths.has(path)) return send(reply, 'method_not_allowed', `${request.method} is not allowed on ${path}`);
    return send(reply, 'not_found', `No such endpoint: ${request.method} ${path}`);
  });

  siteInfoRoutes(app, deps);
  ipRuleRoutes(app, deps);
  geoRuleRoutes(app, deps);
  vulnerabilityRoutes(app, deps);
}

function send(reply: FastifyReply, code: ErrorCode, message?: string): FastifyReply {
  const body = errorBody(code, message);
  return reply.code(new WafctlError(code).status).send(body);
}

function tooMany(reply: FastifyReply, decision: RateDecision): FastifyReply {
  reply.header('retry-after', String(decision.retryAfterSeconds));
  return send(reply, 'rate_limit_exceeded', `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.retryAfterSeconds} s`);
}

