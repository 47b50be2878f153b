import { WafctlError } from '../../../shared/errors.js';
import type { Config } from '../../../shared/schemas/config.js';
import { parseIpRange } from '../../../shared/schemas/ip.js';
import type { ProtectedPageView, RateLimitView } from '../../../shared/schemas/site-settings.js';
import { PLAN_LIMITS } from '../../../shared/plans.js';
import { normalizePath } from '../../proxy/path-prefix.js';
import { requireLiveSite } from './site-lookup.js';

// Rate-limit paths and protected pages on a config draft (run inside ConfigStore.update; a throw
// discards the draft, so a refused change changes nothing).
// Paths are stored in the edge's normal form (path-normal-form.ts: decoded, dot segments removed, lower
// case): what `protect ... list` shows is exactly what the edge matches, and "/WP-Admin" and
// "/wp-admin" are one path (409 duplicate), as they are one path at the edge. Stored paths are
// compared in the current normal form, so a path stored by an older release (whose normal form
// kept `;params` or invalid escapes) is still found and removed by any spelling.

export function storedPath(path: string): string {
  return normalizePath(path);
}

export function addRateLimit(config: Config, domain: string, input: { path: string; per_minute: number }, now: string): RateLimitView[] {
  const site = requireLiveSite(config, domain);
  const list = site.protection.rate_limits;
  const path = storedPath(input.path);
  if (list.some((r) => storedPath(r.path) === path)) throw new WafctlError('duplicate', `${path} already has a rate limit; remove it first to change it`);
  const limit = PLAN_LIMITS[site.plan].rateLimitPaths;
  if (list.length >= limit) throw new WafctlError('limit_exceeded', `the ${site.plan} plan allows ${limit} rate-limited paths, and ${site.domain} has ${list.length}`);
  list.push({ path, per_minute: input.per_minute });
  site.updated_at = now;
  return list.map((r) => ({ ...r }));
}

export function removeRateLimit(config: Config, domain: string, pathText: string, now: string): RateLimitView[] {
  const site = requireLiveSite(config, domain);
  const path = storedPath(pathText);
  const index = site.protection.rate_limits.findIndex((r) => storedPath(r.path) === path);
  if (index === -1) throw new WafctlError('not_found', `${path} has no rate limit on ${site.domain}`);
  site.protection.rate_limits.splice(index, 1);
  site.updated_at = now;
  return site.protection.rate_limits.map((r) => ({ ...r }));
}

/** Each entry through the one IP parser (shared/schemas/ip.ts), stored canonical; a bad one is named with why; repeats are dropped. */
export function canonicalAllowList(entries: readonly string[]): string[] {
  const out: string[] = [];
  entries.forEach((entry, i) => {
    const parsed = parseIpRange(entry);
    if (!parsed.ok) throw new WafctlError('validation_error', `allow[${i}]: ${JSON.stringify(entry.slice(0, 80))} ${parsed.reason}`);
    const canonical = parsed.range.text;
    if (!out.includes(canonical)) out.push(canonical);
  });
  return out;
}

export function addProtectedPage(config: Config, domain: string, input: { path: string; allow: string[] }, now: string): ProtectedPageView[] {
  const site = requireLiveSite(config, domain);
  const allow = canonicalAllowList(input.allow);
  const list = site.protection.protected_pages;
  const path = storedPath(input.path);
  if (list.some((p) => storedPath(p.path) === path)) throw new WafctlError('duplicate', `${path} is already protected; remove it first to change its allow list`);
  const limit = PLAN_LIMITS[site.plan].protectedPaths;
  if (list.length >= limit) throw new WafctlError('limit_exceeded', `the ${site.plan} plan allows ${limit} protected paths, and ${site.domain} has ${list.length}`);
  list.push({ path, allow });
  site.updated_at = now;
  return list.map((p) => ({ path: p.path, allow: [...p.allow] }));
}

export function removeProtectedPage(config: Config, domain: string, pathText: string, now: string): ProtectedPageView[] {
  const site = requireLiveSite(config, domain);
  const path = storedPath(pathText);
  const index = site.protection.protected_pages.findIndex((p) => storedPath(p.path) === path);
  if (index === -1) throw new WafctlError('not_found', `${path} is not a protected page of ${site.domain}`);
  site.protection.protected_pages.splice(index, 1);
  site.updated_at = now;
  return site.protection.protected_pages.map((p) => ({ path: p.path, allow: [...p.allow] }));
}
