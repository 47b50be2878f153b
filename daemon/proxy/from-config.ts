import type { StoredSite } from '../../shared/schemas/site.js';
import type { EdgeConfigInput, SiteInput } from './snapshot-input.js';

// The control plane's stored sites (shared/schemas/site.ts) as the edge's plain config
// (snapshot-input.ts). Pure: the config store's shape can change without touching the edge,
// only this mapping.

export function edgeConfigFromSites(sites: readonly StoredSite[]): EdgeConfigInput {
  // A deleted site keeps answering 503 for its hosts, unless a live site has taken a host over
  // (the store lets a new site reuse a deleted site's domain): then the live site serves it.
  const live = sites.filter((s) => s.status !== 'deleted');
  const taken = new Set(live.flatMap((s) => [s.domain, ...s.aliases].map((h) => h.toLowerCase())));
  const deleted = sites.filter((s) => s.status === 'deleted' && !taken.has(s.domain.toLowerCase()))
    .map((s) => ({ ...s, aliases: s.aliases.filter((a) => !taken.has(a.toLowerCase())) }));
  for (const s of deleted) for (const h of [s.domain, ...s.aliases]) taken.add(h.toLowerCase());
  return { sites: [...live, ...deleted].map(siteInput) };
}

function siteInput(site: StoredSite): SiteInput {
  const p = site.protection;
  return {
    id: site.id,
    domain: site.domain,
    aliases: [...site.aliases],
    origin: site.origin,
    status: site.status,
    isDefault: site.is_default ?? false,
    ipWhitelist: site.ip_rules.whitelist.map((r) => r.ip),
    ipBlacklist: site.ip_rules.blacklist.map((r) => r.ip),
    geo: site.geo_rules ? { enabled: site.geo_rules.enabled, mode: site.geo_rules.mode, countries: [...site.geo_rules.countries] } : null,
    pageProtection: p.protected_pages.map((pp) => ({ path: pp.path, allow: [...pp.allow] })),
    rateLimits: p.rate_limits.map((r) => ({ path: r.path, perMinute: r.per_minute })),
    bot: { enabled: p.bot.enabled, challenge: p.bot.challenge, challengeExempt: [...(p.bot.challenge_exempt ?? [])] },
    blockResponse: p.block_response === 'drop' ? 'drop' : p.block_response === '404' ? 404 : 403,
    waf: {
      mode: p.waf.mode,
      paranoia: p.waf.paranoia,
      detectionParanoia: p.waf.detection_paranoia ?? null,
      onError: p.waf.on_error ?? 'closed',
      inboundThreshold: p.waf.inbound_threshold,
      outboundThreshold: p.waf.outbound_threshold,
      groups: { cms: p.waf.groups.cms, crs: p.waf.groups.crs },
      blockUserEnumeration: p.waf.block_user_enumeration ?? true,
      rulesBefore: p.waf.rules_before ? { name: p.waf.rules_before.path, text: p.waf.rules_before.text } : null,
      rulesAfter: p.waf.rules_after ? { name: p.waf.rules_after.path, text: p.waf.rules_after.text } : null,
    },
    bodyOverLimit: p.body_over_limit ?? 'reject',
    responseInspection: (p.response_inspection ?? 'on') === 'on',
    tls: site.tls ?? null,
    acmeChallenges: Object.fromEntries((site.acme?.challenges ?? []).map((c) => [c.token, c.key_authorization])),
  };
}
