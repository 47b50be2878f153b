// Bans and the auto-ban setting of a site on the admin socket (ROUTES.md): `wafctl bans ...` and
// `wafctl protect auto-ban`.
//
//   GET    /admin/sites/:domain/bans[?all=1]  data: BanView[] (active; with all=1 also those that ended this week)
//   POST   /admin/sites/:domain/bans          {ip, minutes?, reason?} -> 201 data: Ban
//   DELETE /admin/sites/:domain/bans          {ip} -> data: Ban[] lifted; 404 not_found when none was active
//   GET    /admin/sites/:domain/auto-ban      data: AutoBan | null
//   PUT    /admin/sites/:domain/auto-ban      {strikes, window_minutes, ban_minutes} -> data: AutoBan
//   DELETE /admin/sites/:domain/auto-ban      data: null (off)
import type { FastifyInstance } from 'fastify';
import { WafctlError } from '../../../shared/errors.js';
import { AddBanBodySchema, AutoBanSchema, ListBansQuerySchema, RemoveBanBodySchema, type AutoBan } from '../../../shared/schemas/bans.js';
import { parseWith } from '../../api/envelope.js';
import type { BanService } from '../../bans/ban-service.js';
import type { ConfigStore } from '../../store/config/config-store.js';
import { requireSite } from '../../store/config/sites.js';
import { requireLiveSite } from '../protection/site-lookup.js';

type DomainParams = { Params: { domain: string } };

export function banAdminRoutes(bans: BanService, store: ConfigStore, now: () => Date): (app: FastifyInstance) => void {
  return (app) => {
    const base = '/admin/sites/:domain';

    app.get<DomainParams>(`${base}/bans`, async (request) => {
      const site = requireSite(store.snapshot(), request.params.domain);
      const { all } = parseWith(ListBansQuerySchema, request.query ?? {}, 'query');
      return { success: true, data: bans.list(site.id, all === '1' || all === 'true') };
    });
    app.post<DomainParams>(`${base}/bans`, async (request, reply) => {
      const site = requireLiveSite(store.snapshot(), request.params.domain);
      const body = parseWith(AddBanBodySchema, request.body);
      const ban = await bans.add(site, body);
      request.log.info({ domain: site.domain, ip: ban.ip, until: ban.expires_at }, 'ban added');
      return reply.code(201).send({ success: true, data: ban });
    });
    app.delete<DomainParams>(`${base}/bans`, async (request) => {
      const site = requireSite(store.snapshot(), request.params.domain);
      const { ip } = parseWith(RemoveBanBodySchema, request.body);
      const lifted = await bans.remove(site, ip);
      if (lifted.length === 0) throw new WafctlError('not_found', `${ip} has no active ban on ${site.domain}`);
      request.log.info({ domain: site.domain, ip }, 'ban lifted');
      return { success: true, data: lifted };
    });

    app.get<DomainParams>(`${base}/auto-ban`, async (request) => {
      const site = requireSite(store.snapshot(), request.params.domain);
      return { success: true, data: site.protection.auto_ban ?? null };
    });
    app.put<DomainParams>(`${base}/auto-ban`, async (request) => {
      const setting = parseWith(AutoBanSchema, request.body);
      const saved = await setAutoBan(store, request.params.domain, setting, now);
      request.log.info({ domain: request.params.domain, ...setting }, 'auto-ban set');
      return { success: true, data: saved };
    });
    app.delete<DomainParams>(`${base}/auto-ban`, async (request) => {
      await setAutoBan(store, request.params.domain, null, now);
      request.log.info({ domain: request.params.domain }, 'auto-ban off');
      return { success: true, data: null };
    });
  };
}

function setAutoBan(store: ConfigStore, domain: string, setting: AutoBan | null, now: () => Date): Promise<AutoBan | null> {
  return store.update((draft) => {
    const site = requireLiveSite(draft, domain);
    site.protection.auto_ban = setting === null ? null : { ...setting };
    site.updated_at = now().toISOString();
    return setting;
  });
}
