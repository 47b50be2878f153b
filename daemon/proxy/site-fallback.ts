import { ChallengeExemptions } from './checks/bot/challenge-exemptions.js';
import { EMPTY_IP_SET } from './ip-set.js';
import { compilePrefixTable } from './path-prefix.js';
import { defaultRuleSettings } from '../rule-sets/rule-settings.js';
import type { CompiledSite, EdgeSnapshot } from './snapshot.js';

// What the edge serves for a site whose configuration does not compile (a hand-edited config.json,
// a value an older version stored, a future bug): that site alone, never the others.
// - It had compiled before in this process: its last good compiled site stays, unchanged (its
//   rules, hosts, certificate), unless the new configuration turns it off (inactive or deleted:
//   disabling a broken site must still work).
// - It never compiled here (daemon start, or a new site): it is served unavailable, 503 on its
//   hosts, nothing forwarded. Failing closed: a site whose blacklist or page allow list cannot be
//   read must not be served without them.

/** One site the build could not compile, and what is served instead (logged by the caller). */
export interface SiteProblem {
  readonly siteId: number | null;
  readonly domain: string;
  readonly reason: string;
  /** last-good: the site's last good compiled rules; unavailable: 503; conflict: served without the host or default role another site holds. */
  readonly served: 'last-good' | 'unavailable' | 'conflict';
}

const HOSTNAME = /^[A-Za-z0-9.-]{1,253}$/;
const NOWHERE = new URL('http://unavailable.invalid/');
const NO_PREFIXES = compilePrefixTable<never>([]);

/** The site served instead of `raw` (the site's input as given), and how to report it. */
export function fallbackSite(raw: unknown, previous: EdgeSnapshot | null, reason: string): { site: CompiledSite; problem: SiteProblem } {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const id = Number.isSafeInteger(r.id) && (r.id as number) >= 0 ? (r.id as number) : null;
  const domain = typeof r.domain === 'string' ? r.domain.slice(0, 253) : '';
  const status = r.status === 'inactive' || r.status === 'deleted' ? r.status : 'active';
  const lastGood = id === null ? undefined : previous?.sites.find((s) => s.id === id);
  if (lastGood && status === 'active') {
    return { site: lastGood, problem: { siteId: id, domain: lastGood.domain, reason, served: 'last-good' } };
  }
  const aliases = Array.isArray(r.aliases) ? r.aliases : [];
  const hosts = [domain, ...aliases].filter((h): h is string => typeof h === 'string' && HOSTNAME.test(h)).map(hostName);
  const site: CompiledSite = Object.freeze({
    id: id ?? -1,
    domain: domain.toLowerCase(),
    hosts: Object.freeze([...new Set(hosts)]),
    // The request handler answers 503 for any site not active, before any check or forwarding.
    status: status === 'deleted' ? 'deleted' : 'inactive',
    origin: NOWHERE,
    originKey: 'http://unavailable.invalid:80',
    originBasePath: '',
    blockResponse: 403,
    ipWhitelist: EMPTY_IP_SET,
    ipBlacklist: EMPTY_IP_SET,
    geo: null,
    pageProtection: NO_PREFIXES,
    rateLimits: NO_PREFIXES,
    bot: Object.freeze({ enabled: false, challenge: 'off', blockAutomated: false, challengeExempt: new ChallengeExemptions([]) }),
    waf: Object.freeze({ mode: 'on', paranoia: 1, onError: 'closed', rules: defaultRuleSettings(1) }),
    bodyOverLimit: 'reject',
    responseInspection: true,
    ruleCounters: new Map(),
    secureContext: null,
    acmeChallenges: new Map(),
  } satisfies CompiledSite);
  return { site, problem: { siteId: id, domain, reason, served: 'unavailable' } };
}

/** The log line for a problem: which site, why, what is served. */
export function describeSiteProblem(p: SiteProblem): string {
  const what = p.served === 'last-good' ? 'its last good configuration stays'
    : p.served === 'unavailable' ? 'it is served unavailable (503) until fixed' : 'served without it';
  return `edge: site ${p.siteId ?? '?'} (${p.domain || 'no domain'}) configuration not applied, ${what}; other sites are not affected: ${p.reason}`;
}

function hostName(h: string): string {
  return (h.endsWith('.') ? h.slice(0, -1) : h).toLowerCase();
}
