import type { FastifyInstance } from 'fastify';
import { AddProtectedPageBodySchema, AddRateLimitBodySchema, PathBodySchema, SetBotBodySchema } from '../../../shared/schemas/site-settings.js';
import { parseWith } from '../../api/envelope.js';
import { addProtectedPage, addRateLimit, removeProtectedPage, removeRateLimit } from '../protection/protected-paths.js';
import { requireLiveSite } from '../protection/site-lookup.js';
import { requireSite } from '../../store/config/sites.js';
import type { AdminDependencies } from '../dependencies.js';
import { normalizePath } from '../../proxy/path-prefix.js';

// Rate limits, protected pages and bot protection of a site on the admin socket (ROUTES.md):
// `wafctl protect ...`. Every change runs in one config draft: refused, it changes nothing.

type DomainParams = { Params: { domain: string } };

export function protectionRoutes(app: FastifyInstance, deps: AdminDependencies): void {
  const { store } = deps;
  const stamp = () => deps.now().toISOString();
  const base = '/admin/sites/:domain';

  app.get<DomainParams>(`${base}/rate-limits`, async (request) => {
    const site = requireSite(store.snapshot(), request.params.domain);
    return { success: true, data: site.protection.rate_limits.map((r) => ({ ...r })) };
  });
  app.post<DomainParams>(`${base}/rate-limits`, async (request, reply) => {
    const body = parseWith(AddRateLimitBodySchema, request.body);
    const list = await store.update((draft) => addRateLimit(draft, request.params.domain, body, stamp()));
    request.log.info({ domain: request.params.domain, path: body.path, per_minute: body.per_minute }, 'rate limit added');
    return reply.code(201).send({ success: true, data: list });
  });
  app.delete<DomainParams>(`${base}/rate-limits`, async (request) => {
    const { path } = parseWith(PathBodySchema, request.body);
    const list = await store.update((draft) => removeRateLimit(draft, request.params.domain, path, stamp()));
    request.log.info({ domain: request.params.domain, path }, 'rate limit removed');
    return { success: true, data: list };
  });

  app.get<DomainParams>(`${base}/protected-pages`, async (request) => {
    const site = requireSite(store.snapshot(), request.params.domain);
    return { success: true, data: site.protection.protected_pages.map((p) => ({ path: p.path, allow: [...p.allow] })) };
  });
  app.post<DomainParams>(`${base}/protected-pages`, async (request, reply) => {
    const body = parseWith(AddProtectedPageBodySchema, request.body);
    const list = await store.update((draft) => addProtectedPage(draft, request.params.domain, body, stamp()));
    request.log.info({ domain: request.params.domain, path: body.path }, 'protected page added');
    return reply.code(201).send({ success: true, data: list });
  });
  app.delete<DomainParams>(`${base}/protected-pages`, async (request) => {
    const { path } = parseWith(PathBodySchema, request.body);
    const list = await store.update((draft) => removeProtectedPage(draft, request.params.domain, path, stamp()));
    request.log.info({ domain: request.params.domain, path }, 'protected page removed');
    return { success: true, data: list };
  });

  app.get<DomainParams>(`${base}/bot`, async (request) => {
    const site = requireSite(store.snapshot(), request.params.domain);
    return { success: true, data: botView(site.protection.bot) };
  });
  app.put<DomainParams>(`${base}/bot`, async (request) => {
    const body = parseWith(SetBotBodySchema, request.body);
    const bot = await store.update((draft) => {
      const site = requireLiveSite(draft, request.params.domain);
      // Turning bot protection off keeps the challenge choice unless one is given; `on` without one keeps it too.
      const exempt = body.challenge_exempt ? uniquePaths(body.challenge_exempt) : site.protection.bot.challenge_exempt;
      site.protection.bot = {
        enabled: body.enabled,
        challenge: body.challenge ?? site.protection.bot.challenge,
        ...(exempt && exempt.length > 0 ? { challenge_exempt: exempt } : {}),
      };
      site.updated_at = stamp();
      return botView(site.protection.bot);
    });
    request.log.info({ domain: request.params.domain, ...bot }, 'bot protection changed');
    return { success: true, data: bot };
  });
}

function botView(bot: { enabled: boolean; challenge: 'js' | 'off'; challenge_exempt?: string[] }) {
  return { enabled: bot.enabled, challenge: bot.challenge, challenge_exempt: [...(bot.challenge_exempt ?? [])] };
}

/** The same path twice (in its normal form) is kept once, in the order first given. */
function uniquePaths(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((path) => {
    const key = normalizePath(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
