import { WafctlError } from '../../../shared/errors.js';
import type { AddSiteBodySchema, UpdateSiteBodySchema } from '../../../shared/schemas/admin.js';
import type { Config } from '../../../shared/schemas/config.js';
import { normaliseDomain } from '../../../shared/schemas/domain.js';
import { defaultProtection, type SiteStatus, type StoredSite } from '../../../shared/schemas/site.js';
import type { z } from 'zod';
import { generateSiteKey, sha256Hex } from './secrets.js';

// Site operations on a config draft (run inside ConfigStore.update). Each throws a WafctlError and
// leaves the draft for the store to discard when the request cannot be honoured.
// Decision: a deleted site gives its domain and aliases back, so the same domain can be added again
// (as a new site with a new id); lookups prefer the live site over deleted ones.

type AddSite = z.output<typeof AddSiteBodySchema>;
type UpdateSite = z.output<typeof UpdateSiteBodySchema>;

export function findSite(config: Readonly<Config>, domainText: string): StoredSite | undefined {
  const check = normaliseDomain(domainText);
  if (!check.ok) return undefined;
  const host = check.domain;
  const live = config.sites.find((s) => s.status !== 'deleted' && (s.domain === host || s.aliases.includes(host)));
  if (live) return live;
  return config.sites.filter((s) => s.domain === host).at(-1);
}

export function requireSite(config: Readonly<Config>, domainText: string): StoredSite {
  const site = findSite(config, domainText);
  if (!site) throw new WafctlError('not_found', `no site ${domainText}`);
  return site;
}

function requireLiveSite(config: Config, domainText: string): StoredSite {
  const site = requireSite(config, domainText);
  if (site.status === 'deleted') throw new WafctlError('site_deleted', `site ${site.domain} has been deleted`);
  return site;
}

function assertHostsFree(config: Config, hosts: readonly string[], exceptSiteId: number | null): void {
  for (const host of hosts) {
    const owner = config.sites.find((s) => s.id !== exceptSiteId && s.status !== 'deleted' && (s.domain === host || s.aliases.includes(host)));
    if (owner) {
      const how = owner.domain === host ? 'the domain' : 'an alias';
      throw new WafctlError('duplicate', `${host} is already ${how} of site ${owner.domain} (id ${owner.id})`);
    }
  }
}

function cleanAliases(domain: string, aliases: readonly string[]): string[] {
  if (aliases.includes(domain)) throw new WafctlError('validation_error', `aliases: ${domain} is the site's own domain`);
  return [...new Set(aliases)];
}

export function addSite(config: Config, input: AddSite, now: string): { site: StoredSite; apiKey: string } {
  const aliases = cleanAliases(input.domain, input.aliases);
  assertHostsFree(config, [input.domain, ...aliases], null);
  const apiKey = generateSiteKey();
  const site: StoredSite = {
    id: config.next_ids.site,
    account_id: config.accounts[0].id,
    domain: input.domain,
    aliases,
    origin: input.origin,
    plan: input.plan,
    status: 'active',
    key_hash: sha256Hex(apiKey),
    key_created_at: now,
    created_at: now,
    updated_at: now,
    ip_rules: { whitelist: [], blacklist: [] },
    // Geo blocking off with no countries: a new site answers GET /geo-rules with its settings, so
    // 404 no_settings is left for sites made before this default (the WordPress plugin's geo page
    // shows an alert on every visit to a site without settings).
    geo_rules: { enabled: false, mode: 'blacklist', countries: [] },
    protection: defaultProtection(),
    is_default: false,
    tls: null,
  };
  config.next_ids.site += 1;
  config.sites.push(site);
  return { site, apiKey };
}

export function updateSite(config: Config, domainText: string, patch: UpdateSite, now: string): StoredSite {
  const site = requireLiveSite(config, domainText);
  if (patch.aliases !== undefined) {
    const aliases = cleanAliases(site.domain, patch.aliases);
    assertHostsFree(config, aliases, site.id);
    site.aliases = aliases;
  }
  if (patch.origin !== undefined) site.origin = patch.origin;
  if (patch.plan !== undefined) site.plan = patch.plan;
  site.updated_at = now;
  return site;
}

export function setSiteStatus(config: Config, domainText: string, status: SiteStatus, now: string): StoredSite {
  const site = requireLiveSite(config, domainText);
  site.status = status;
  site.updated_at = now;
  return site;
}

/** Replaces the site's key; the old hash is gone, so the old key fails at once. Returns the clear key. */
export function regenerateSiteKey(config: Config, domainText: string, now: string): string {
  const site = requireLiveSite(config, domainText);
  const apiKey = generateSiteKey();
  site.key_hash = sha256Hex(apiKey);
  site.key_created_at = now;
  site.updated_at = now;
  return apiKey;
}

export function liveSites(config: Readonly<Config>): StoredSite[] {
  return config.sites.filter((s) => s.status !== 'deleted');
}
