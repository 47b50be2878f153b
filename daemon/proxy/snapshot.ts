import { ChallengeExemptions } from './checks/bot/challenge-exemptions.js';
import tls from 'node:tls';
import { z } from 'zod';
import { compileIpSet, type IpSet } from './ip-set.js';
import { compilePrefixTable, type PrefixTable } from './path-prefix.js';
import { announceRuleSettings, RuleSettingsInterner, type WafRuleSettings } from '../rule-sets/rule-settings.js';
import { SiteInputSchema, type EdgeConfigInput, type SiteConfig } from './snapshot-input.js';
import { fallbackSite, type SiteProblem } from './site-fallback.js';

// An EdgeSnapshot is the data plane's whole view of the configuration, compiled once by
// buildEdgeSnapshot() and never mutated: a request reads the snapshot current when it
// arrived, so swapping one in (Edge.setSnapshot) applies to the next request without locks,
// restarts or dropped connections.
// Each site's engine settings (paranoia, thresholds, groups, user rule files) are one frozen
// WafRuleSettings shared by every site with the same values; after a build the snapshot announces
// them so the engine compiles new combinations before requests need them (daemon/rule-sets/rule-groups.ts).

export type { WafRuleSettings } from '../rule-sets/rule-settings.js';
export type { SiteProblem } from './site-fallback.js';

export type BlockResponse = 403 | 404 | 'drop';

export interface CompiledSite {
  readonly id: number;
  readonly domain: string;
  readonly hosts: readonly string[];
  readonly status: 'active' | 'inactive' | 'deleted';
  readonly origin: URL;
  /** Pool key: scheme://host:port of the origin. */
  readonly originKey: string;
  /** Prefix put before every forwarded path ('' when the origin URL has no path). */
  readonly originBasePath: string;
  readonly blockResponse: BlockResponse;
  readonly ipWhitelist: IpSet;
  readonly ipBlacklist: IpSet;
  /** null: geo rules off. */
  readonly geo: { readonly mode: 'whitelist' | 'blacklist'; readonly countries: ReadonlySet<string> } | null;
  readonly pageProtection: PrefixTable<IpSet>;
  readonly rateLimits: PrefixTable<number>;
  readonly bot: { readonly enabled: boolean; readonly challenge: 'js' | 'off'; readonly blockAutomated: boolean; readonly challengeExempt: ChallengeExemptions };
  readonly waf: {
    readonly mode: 'on' | 'detect' | 'off';
    readonly paranoia: 1 | 2 | 3 | 4;
    readonly onError: 'closed' | 'open';
    /** What the engine compiles for this site; the inspector reads it as `request.site.rules`. */
    readonly rules: WafRuleSettings;
  };
  readonly bodyOverLimit: 'reject' | 'pass';
  /** Run the response phases 3-5 (the inspector gets site.responses); off: responses stream untouched. */
  readonly responseInspection: boolean;
  /** Per-minute limits of rule counters by name (see inspector.ts Verdict.counters). */
  readonly ruleCounters: ReadonlyMap<string, number>;
  readonly secureContext: tls.SecureContext | null;
  /** Open ACME HTTP-01 challenges: token -> key authorization (acme-challenge.ts). */
  readonly acmeChallenges: ReadonlyMap<string, string>;
}

export interface EdgeSnapshot {
  /** Increases with every build in this process; shown in logs to tell snapshots apart. */
  readonly version: number;
  readonly sites: readonly CompiledSite[];
  readonly defaultSite: CompiledSite | null;
  /** Sites this build could not compile and what is served for each instead (isolated builds only). */
  readonly problems: readonly SiteProblem[];
  /** Site for a Host header value (any case, with or without :port), else the default site. */
  siteForHost(host: string | undefined): CompiledSite | null;
  /** TLS context for an SNI server name, or null. */
  secureContextFor(servername: string): tls.SecureContext | null;
}

export class EdgeConfigError extends Error {
  override name = 'EdgeConfigError';
}

/**
 * How a build treats a site that does not compile. Absent: the build throws (tests and tools that
 * build configs in code want the error). Given: the site alone falls back (site-fallback.ts: its
 * last good compiled site from `previous`, else unavailable) and the build goes on; the daemon's
 * edge always builds this way, so one site's bad entry never holds back the others or a start.
 */
export interface SiteIsolation {
  readonly previous: EdgeSnapshot | null;
}

const ShapeSchema = z.object({ sites: z.array(z.unknown()) });

let versions = 0;

/** Validates and compiles the plain config; throws EdgeConfigError naming the bad field. */
export function buildEdgeSnapshot(input: EdgeConfigInput | unknown, isolation?: SiteIsolation): EdgeSnapshot {
  const shape = ShapeSchema.safeParse(input);
  if (!shape.success) throw new EdgeConfigError(`invalid edge config: ${describe(shape.error, '')}`);
  const byHost = new Map<string, CompiledSite>();
  const sites: CompiledSite[] = [];
  const problems: SiteProblem[] = [];
  let defaultSite: CompiledSite | null = null;
  const interner = new RuleSettingsInterner();
  const fail = (raw: unknown, reason: string): CompiledSite => {
    if (!isolation) throw new EdgeConfigError(reason);
    const { site, problem } = fallbackSite(raw, isolation.previous, reason);
    problems.push(problem);
    return site;
  };
  shape.data.sites.forEach((raw, i) => {
    const where = `sites[${i}]`;
    let site: CompiledSite;
    let isDefault: boolean;
    const parsed = SiteInputSchema.safeParse(raw);
    if (!parsed.success) {
      site = fail(raw, `invalid edge config: ${describe(parsed.error, `sites.${i}`)}`);
      isDefault = (raw as { isDefault?: unknown } | null)?.isDefault === true;
    } else {
      try {
        site = compileSite(parsed.data, where, interner);
      } catch (err) {
        site = fail(raw, err instanceof EdgeConfigError ? err.message : `${where}: ${(err as Error).message}`);
      }
      isDefault = parsed.data.isDefault;
    }
    sites.push(site);
    for (const host of site.hosts) {
      const other = byHost.get(host);
      if (other) {
        const reason = `${where}: host ${host} is already served by site ${other.id}`;
        if (!isolation) throw new EdgeConfigError(reason);
        // The site listed first keeps the host; this one is served on its other hosts.
        problems.push({ siteId: site.id, domain: site.domain, reason, served: 'conflict' });
      } else byHost.set(host, site);
    }
    if (isDefault) {
      if (defaultSite) {
        const reason = `${where}: site ${defaultSite.id} is already the default site`;
        if (!isolation) throw new EdgeConfigError(reason);
        problems.push({ siteId: site.id, domain: site.domain, reason, served: 'conflict' });
      } else defaultSite = site;
    }
  });
  const fallback = defaultSite as CompiledSite | null;
  // A last good site kept from an earlier build keeps its rule settings warm too.
  const settings = new Map(interner.all().map((r) => [r.key, r]));
  for (const site of sites) if (!settings.has(site.waf.rules.key)) settings.set(site.waf.rules.key, site.waf.rules);
  announceRuleSettings([...settings.values()]);
  return Object.freeze({
    version: ++versions,
    sites: Object.freeze(sites),
    defaultSite: fallback,
    problems: Object.freeze(problems),
    siteForHost(host: string | undefined): CompiledSite | null {
      if (!host) return fallback;
      return byHost.get(hostKey(host)) ?? fallback;
    },
    secureContextFor(servername: string): tls.SecureContext | null {
      return byHost.get(servername.toLowerCase())?.secureContext ?? fallback?.secureContext ?? null;
    },
  });
}

/** Why one site's input does not compile on its own (null: it does), without announcing anything. */
export function siteInputProblem(raw: unknown, where = 'site'): string | null {
  const parsed = SiteInputSchema.safeParse(raw);
  if (!parsed.success) return `invalid edge config: ${describe(parsed.error, where)}`;
  try {
    compileSite(parsed.data, where, new RuleSettingsInterner());
    return null;
  } catch (err) {
    return err instanceof EdgeConfigError ? err.message : `${where}: ${(err as Error).message}`;
  }
}

/** "Example.COM:8080" -> "example.com"; "[::1]:80" -> "[::1]"; a trailing dot is dropped. */
export function hostKey(host: string): string {
  let h = host;
  if (h.charCodeAt(0) !== 91 /* [ */) {
    const colon = h.indexOf(':');
    if (colon !== -1) h = h.slice(0, colon);
  } else {
    const close = h.indexOf(']');
    if (close !== -1) h = h.slice(0, close + 1);
  }
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h.toLowerCase();
}

function compileSite(cfg: SiteConfig, where: string, interner: RuleSettingsInterner): CompiledSite {
  const origin = new URL(cfg.origin);
  const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
  let secureContext: tls.SecureContext | null = null;
  if (cfg.tls) {
    try {
      secureContext = tls.createSecureContext({ cert: cfg.tls.cert, key: cfg.tls.key });
    } catch (err) {
      throw new EdgeConfigError(`${where}.tls: certificate or key unusable: ${(err as Error).message}`);
    }
  }
  const hosts = [cfg.domain, ...cfg.aliases].map(hostKey);
  return Object.freeze({
    id: cfg.id,
    domain: cfg.domain.toLowerCase(),
    hosts: Object.freeze(hosts),
    status: cfg.status,
    origin,
    originKey: `${origin.protocol}//${origin.hostname}:${port}`,
    originBasePath: origin.pathname === '/' ? '' : origin.pathname.replace(/\/$/, ''),
    blockResponse: cfg.blockResponse,
    ipWhitelist: compileIpSet(cfg.ipWhitelist),
    ipBlacklist: compileIpSet(cfg.ipBlacklist),
    geo: cfg.geo && cfg.geo.enabled
      ? Object.freeze({ mode: cfg.geo.mode, countries: new Set(cfg.geo.countries.map((c) => c.toUpperCase())) })
      : null,
    pageProtection: compilePrefixTable(cfg.pageProtection.map((p) => ({ path: p.path, value: compileIpSet(p.allow) }))),
    rateLimits: compilePrefixTable(cfg.rateLimits.map((r) => ({ path: r.path, value: r.perMinute }))),
    bot: Object.freeze({ enabled: cfg.bot.enabled, challenge: cfg.bot.challenge, blockAutomated: cfg.bot.blockAutomated, challengeExempt: new ChallengeExemptions(cfg.bot.challengeExempt) }),
    waf: Object.freeze({
      mode: cfg.waf.mode,
      paranoia: cfg.waf.paranoia as 1 | 2 | 3 | 4,
      onError: cfg.waf.onError,
      rules: interner.intern({
        paranoia: cfg.waf.paranoia as 1 | 2 | 3 | 4,
        detectionParanoia: cfg.waf.detectionParanoia as 1 | 2 | 3 | 4 | null,
        inboundThreshold: cfg.waf.inboundThreshold,
        outboundThreshold: cfg.waf.outboundThreshold,
        groups: cfg.waf.groups,
        blockUserEnumeration: cfg.waf.blockUserEnumeration,
        before: cfg.waf.rulesBefore,
        after: cfg.waf.rulesAfter,
      }),
    }),
    bodyOverLimit: cfg.bodyOverLimit,
    responseInspection: cfg.responseInspection,
    ruleCounters: new Map(Object.entries(cfg.ruleCounters)),
    secureContext,
    acmeChallenges: new Map(Object.entries(cfg.acmeChallenges)),
  });
}

/** Each issue with its field path ("sites.0.ipBlacklist.1: ..."), under `prefix` (a site's place). */
function describe(error: z.ZodError, prefix: string): string {
  return error.issues.map((i) => `${[...(prefix ? [prefix] : []), ...i.path].join('.') || '(root)'}: ${i.message}`).join('; ');
}
