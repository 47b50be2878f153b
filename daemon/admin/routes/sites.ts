import type { FastifyInstance } from 'fastify';
import { AddSiteBodySchema } from '../../../shared/schemas/admin.js';
import { UpdateSiteBodySchema } from '../../../shared/schemas/site-settings.js';
import { siteView, type SiteStatus } from '../../../shared/schemas/site.js';
import { parseWith } from '../../api/envelope.js';
import { addSite, liveSites, regenerateSiteKey, requireSite, setSiteStatus } from '../../store/config/sites.js';
import { updateSiteSettings } from '../protection/site-settings.js';
import type { AdminDependencies } from '../dependencies.js';

// Sites on the admin socket (ROUTES.md): add, list, show, set (also the protection settings of
// `wafctl site set`), disable, enable, delete, key.

type DomainParams = { Params: { domain: string } };

export function siteRoutes(app: FastifyInstance, deps: AdminDependencies): void {
  const { store } = deps;
  const stamp = () => deps.now().toISOString();

  app.get<{ Querystring: { all?: string } }>('/admin/sites', async (request) => {
    const config = store.snapshot();
    const all = request.query.all === '1' || request.query.all === 'true';
    return { success: true, data: (all ? config.sites : liveSites(config)).map(siteView) };
  });

  app.post('/admin/sites', async (request, reply) => {
    const input = parseWith(AddSiteBodySchema, request.body);
    const { site, apiKey } = await store.update((draft) => addSite(draft, input, stamp()));
    request.log.info({ site: site.id, domain: site.domain }, 'site added');
    return reply.code(201).send({ success: true, data: { site: siteView(site), api_key: apiKey } });
  });

  app.get<DomainParams>('/admin/sites/:domain', async (request) => {
    return { success: true, data: siteView(requireSite(store.snapshot(), request.params.domain)) };
  });

  app.patch<DomainParams>('/admin/sites/:domain', async (request) => {
    const patch = parseWith(UpdateSiteBodySchema, request.body);
    const site = await store.update((draft) => updateSiteSettings(draft, request.params.domain, patch, deps.now()));
    request.log.info({ domain: site.domain, fields: Object.keys(patch) }, 'site settings changed');
    return { success: true, data: siteView(site) };
  });

  const statusRoute = (method: 'post' | 'delete', path: string, status: SiteStatus) => {
    app[method]<DomainParams>(path, async (request) => {
      const site = await store.update((draft) => setSiteStatus(draft, request.params.domain, status, stamp()));
      request.log.info({ site: site.id, status }, 'site status changed');
      return { success: true, data: siteView(site) };
    });
  };
  statusRoute('post', '/admin/sites/:domain/disable', 'inactive');
  statusRoute('post', '/admin/sites/:domain/enable', 'active');
  statusRoute('delete', '/admin/sites/:domain', 'deleted');

  app.post<DomainParams>('/admin/sites/:domain/key', async (request) => {
    const apiKey = await store.update((draft) => regenerateSiteKey(draft, request.params.domain, stamp()));
    request.log.info({ domain: request.params.domain }, 'site key generated');
    return { success: true, data: { api_key: apiKey } };
  });
}
