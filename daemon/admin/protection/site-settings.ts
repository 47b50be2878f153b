import type { z } from 'zod';
import { WafctlError } from '../../../shared/errors.js';
import type { Config } from '../../../shared/schemas/config.js';
import type { UpdateSiteBodySchema } from '../../../shared/schemas/site-settings.js';
import type { StoredSite } from '../../../shared/schemas/site.js';
import { updateSite } from '../../store/config/sites.js';
import { requireLiveSite } from './site-lookup.js';
import { checkParanoiaLevels } from './paranoia-levels.js';
import { checkTlsPair } from './tls-pair.js';
import { requestAcme } from './acme-request.js';

// `wafctl site set`: the site's own fields (origin, plan, aliases, through the store's updateSite)
// and its protection settings, in one draft, so a refused field changes nothing at all.

type Body = z.output<typeof UpdateSiteBodySchema>;

export function updateSiteSettings(config: Config, domain: string, body: Body, now: Date): StoredSite {
  const stamp = now.toISOString();
  let site = requireLiveSite(config, domain);
  if (body.origin !== undefined || body.plan !== undefined || body.aliases !== undefined) {
    site = updateSite(config, domain, { origin: body.origin, plan: body.plan, aliases: body.aliases }, stamp);
  }
  const { waf } = site.protection;
  if (body.mode !== undefined) waf.mode = body.mode;
  if (body.paranoia !== undefined) waf.paranoia = body.paranoia;
  if (body.detection_paranoia !== undefined) waf.detection_paranoia = body.detection_paranoia;
  checkParanoiaLevels(waf.paranoia, waf.detection_paranoia);
  if (body.inbound_threshold !== undefined) waf.inbound_threshold = body.inbound_threshold;
  if (body.outbound_threshold !== undefined) waf.outbound_threshold = body.outbound_threshold;
  if (body.groups?.cms !== undefined) waf.groups.cms = body.groups.cms;
  if (body.block_user_enumeration !== undefined) waf.block_user_enumeration = body.block_user_enumeration;
  if (body.groups?.crs !== undefined) waf.groups.crs = body.groups.crs;
  if (body.on_engine_error !== undefined) waf.on_error = body.on_engine_error;
  if (body.block_response !== undefined) site.protection.block_response = body.block_response;
  if (body.body_over_limit !== undefined) site.protection.body_over_limit = body.body_over_limit;
  if (body.response_inspection !== undefined) site.protection.response_inspection = body.response_inspection;
  if (body.tls !== undefined) {
    // The operator's own certificate (or the generated one) replaces ACME: no more orders or renewals.
    site.tls = body.tls === null ? null : checkTlsPair(body.tls, now);
    site.acme = null;
  }
  if (body.acme !== undefined) site.acme = requestAcme(site.acme ?? null, body.acme, now);
  if (body.is_default === true) {
    // One default site, like nginx's one default_server per listener: moving it is explicit.
    const other = config.sites.find((s) => s.id !== site.id && s.status !== 'deleted' && s.is_default === true);
    if (other) throw new WafctlError('duplicate', `${other.domain} is already the default site; run \`wafctl site set ${other.domain} --no-default\` first`);
    site.is_default = true;
  } else if (body.is_default === false) {
    site.is_default = false;
  }
  site.updated_at = stamp;
  return site;
}
