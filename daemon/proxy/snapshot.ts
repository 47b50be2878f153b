import tls from 'node:tls';
import { z } from 'zod';
import { compileIpSet, type IpSet } from './ip-set.js';
import { compilePrefixTable, type PrefixTable } from './path-prefix.js';
import { announceRuleSettings, RuleSettingsInterner, type WafRuleSettings } from '../waf/rule-settings.js';
import { EdgeConfigInputSchema, type EdgeConfigInput, type SiteConfig } from './snapshot-input.js';

// An EdgeSnapshot is the data plane's whole view of the configuration, compiled once by
// buildEdgeSnapshot() and never mutated: a request reads the snapshot current when it
// arrived, so swapping one in (Edge.setSnapshot) applies to the next request without locks,
// restarts or dropped connections.
// Each site's engine settings (paranoia, thresholds, groups, user rule files) are one frozen
// WafRuleSettings shared by every site with the same values; after a build the snapshot announces
// them so the engine compiles new combinations before requests need them (daemon/waf/rule-groups.ts).

export type { WafRuleSettings } from '../waf/rule-settings.js';

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
  readonly bot: { readonly enabled: boolean; readonly challenge: 'js' | 'off'; readonly blockAutomated: boolean };
  readonly waf: {
    readonly mode: 'on' | 'detect' | 'off';
    readonly paranoia: 1 | 2 | 3 | 4;
    readonly onError: 'closed' | 'open';
    /** What the engine compiles for this site; the inspector reads it as `request.site.rules`. */
    readonly rules: WafRuleSettings;
  };
  readonly bodyOverLimit: 'reject' | 'pass';
  /** Per-minute limits of rule counters by name (see inspector.ts Verdict.counters). */
  readonly ruleCounters: ReadonlyMap<string, number>;
  readonly secureContext: tls.SecureContext | null;
}

export interface EdgeSnapshot {
  /** Increases with every build in this process; shown in logs to tell snapshots apart. */
  readonly version: number;
  readonly sites: readonly CompiledSite[];
  readonly defaultSite: CompiledSite | null;
  /** Site for a Host header value (any case, with or without :port), else the default site. */
  siteForHost(host: string | undefined): CompiledSite | null;
  /** TLS context for an SNI server name, or null. */
  secureContextFor(servername: string): tls.SecureContext | null;
}

export class EdgeConfigError extends Error {
  override name = 'EdgeConfigError';
}

let versions = 0;

/** Validates and compiles the plain config; throws EdgeConfigError naming the bad field. */
export function buildEdgeSnapshot(input: EdgeConfigInput | unknown): EdgeSnapshot {
  const parsed = EdgeConfigInputSchema.safeParse(input);
  if (!parsed.success) throw new EdgeConfigError(`invalid edge config: ${describe(parsed.error)}`);
  const byHost = new Map<string, CompiledSite>();
  const sites: CompiledSite[] = [];
  let defaultSite: CompiledSite | null = null;
  const interner = new RuleSettingsInterner();
  parsed.data.sites.forEach((cfg, i) => {
    const site = compileSite(cfg, `sites[${i}]`, interner);
    sites.push(site);
    for (const host of site.hosts) {
      const other = byHost.get(host);
      if (other) throw new EdgeConfigError(`sites[${i}]: host ${host} is already served by site ${other.id}`);
      byHost.set(host, site);
    }
    if (cfg.isDefault) {
      if (defaultSite) throw new EdgeConfigError(`sites[${i}]: site ${defaultSite.id} is already the default site`);
      defaultSite = site;
    }
  });
  const fallback = defaultSite as CompiledSite | null;
  announceRuleSettings(interner.all());
  return Object.freeze({
    version: ++versions,
    sites: Object.freeze(sites),
    defaultSite: fallback,
    siteForHost(host: string | undefined): CompiledSite | null {
      if (!host) return fallback;
      return byHost.get(hostKey(host)) ?? fallback;
    },
    secureContextFor(servername: string): tls.SecureContext | null {
      return byHost.get(servername.toLowerCase())?.secureContext ?? fallback?.secureContext ?? null;
    },
  });
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
    bot: Object.freeze({ ...cfg.bot }),
    waf: Object.freeze({
      mode: cfg.waf.mode,
      paranoia: cfg.waf.paranoia as 1 | 2 | 3 | 4,
      onError: cfg.waf.onError,
      rules: interner.intern({
        paranoia: cfg.waf.paranoia as 1 | 2 | 3 | 4,
        inboundThreshold: cfg.waf.inboundThreshold,
        outboundThreshold: cfg.waf.outboundThreshold,
        groups: cfg.waf.groups,
        before: cfg.waf.rulesBefore,
        after: cfg.waf.rulesAfter,
      }),
    }),
    bodyOverLimit: cfg.bodyOverLimit,
    ruleCounters: new Map(Object.entries(cfg.ruleCounters)),
    secureContext,
  });
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}
