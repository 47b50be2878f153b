// /waf-logs over the in-memory index: classify the search term, find the matching positions
// of the site (ascending), cut them at the snapshot id, count, and read one page from the end.
import { EventInputError, type WafLogQuery, type WafLogResult } from '../event-store.js';
import type { WafLogEntry } from '../../../shared/schemas/events.js';
import { countAtMost } from './growable-array.js';
import { edgeActionOf, eventAction } from './event-action.js';
import { bucketInCidr, cidrBucket, cidrContains, parseCidr, parseIp, type Cidr } from './ip-address.js';
import type { SiteWafIndex } from './site-waf-index.js';
import type { Postings } from './postings.js';
import type { WafIndex } from './waf-index.js';

export type SearchFilter =
  | { kind: 'none' }
  | { kind: 'ip'; key: string }
  | { kind: 'cidr'; cidr: Cidr }
  | { kind: 'rule'; key: string }
  | { kind: 'group'; key: string }
  | { kind: 'uri'; needle: string };

/** Group names that are always read as a group, even on a site with no event of that group yet. */
const KNOWN_GROUPS = new Set(['crs', 'cms']);
/**
 * The edge's own rule ids (daemon/proxy/checks), read as a rule id like a number is, even on a site
 * with no such event yet: `logs` shows them in its RULE column, so searching for one must find it
 * (before, `page-protection` was read as a URI substring and found nothing).
 */
const EDGE_RULE_IDS = new Set([
  'ip-blacklist', 'geo-whitelist', 'geo-blacklist', 'page-protection', 'rate-limit', 'bot-scanner', 'bot-fake-crawler', 'bot-automated',
]);
const PREFIX_RE = /^(ip|rule|group|uri):/i;

function ipFilter(text: string): SearchFilter | null {
  const ip = parseIp(text);
  if (ip) return { kind: 'ip', key: ip.canonical };
  const cidr = parseCidr(text);
  return cidr ? { kind: 'cidr', cidr } : null;
}

/** The keys of a site a bare word is checked against (the index's postings; PostgreSQL answers the same question in the cluster store). */
export interface KnownKeys {
  byRule: { has(key: string): boolean };
  byGroup: { has(key: string): boolean };
}

/** What a search string asks for (see WafLogQuery.search). */
export function classifySearch(search: string | undefined, site?: KnownKeys): SearchFilter {
  const term = (search ?? '').trim();
  if (term === '') return { kind: 'none' };
  const prefix = PREFIX_RE.exec(term);
  if (prefix) {
    const rest = term.slice(prefix[0].length).trim();
    const kind = prefix[1].toLowerCase();
    if (rest === '') throw new EventInputError(`search: "${prefix[0]}" needs a value`, -1);
    if (kind === 'ip') {
      const f = ipFilter(rest);
      if (!f) throw new EventInputError(`search: "${rest}" is not an IP address or CIDR block`, -1);
      return f;
    }
    if (kind === 'rule') return { kind: 'rule', key: rest.toLowerCase() };
    if (kind === 'group') return { kind: 'group', key: rest.toLowerCase() };
    return { kind: 'uri', needle: rest.toLowerCase() };
  }
  const asIp = ipFilter(term);
  if (asIp) return asIp;
  const lower = term.toLowerCase();
  if (/^\d+$/.test(term) || EDGE_RULE_IDS.has(lower) || lower.startsWith('counter:') || site?.byRule.has(lower)) return { kind: 'rule', key: lower };
  if (KNOWN_GROUPS.has(lower) || site?.byGroup.has(lower)) return { kind: 'group', key: lower };
  return { kind: 'uri', needle: lower };
}

/** Every position, one key's chain of postings, or a list of ascending positions. */
type Matches = { kind: 'all' } | { kind: 'chain'; postings: Postings; key: string } | { kind: 'list'; list: ArrayLike<number> };

function cidrMatches(site: SiteWafIndex, index: WafIndex, cidr: Cidr, limit: number): Uint32Array {
  const one = cidrBucket(cidr);
  const buckets = one !== null ? [site.buckets.get(one)] : [...site.buckets].filter(([b]) => bucketInCidr(cidr, b)).map(([, keys]) => keys);
  const out: number[] = [];
  for (const keys of buckets) {
    if (!keys) continue;
    for (const key of keys) {
      const ip = index.tables.ips.parsedKey(key);
      if (!ip || !cidrContains(cidr, ip)) continue;
      for (const p of site.byIp.positions(key)) if (p < limit) out.push(p);
    }
  }
  // A typed array sorts numerically in native code: several times faster than a comparator
  // over a JS array, which was most of a hot /24's time.
  return Uint32Array.from(out).sort();
}

function findMatches(site: SiteWafIndex, index: WafIndex, f: SearchFilter, limit: number): Matches {
  switch (f.kind) {
    case 'none':
      return { kind: 'all' };
    case 'ip':
      return { kind: 'chain', postings: site.byIp, key: f.key };
    case 'rule':
      return { kind: 'chain', postings: site.byRule, key: f.key };
    case 'group':
      return { kind: 'chain', postings: site.byGroup, key: f.key };
    case 'cidr':
      return { kind: 'list', list: cidrMatches(site, index, f.cidr, limit) };
    case 'uri':
      return { kind: 'list', list: uriMatches(site, f.needle, limit) };
  }
}

/**
 * A character a request line cannot carry as it is (a space, a quote, `<`, `>`, non-ASCII...):
 * a needle holding one can only be found in the percent-decoded URI. Only such a needle pays for
 * decoding the site's encoded URIs; a needle of URI characters is matched against the URI as
 * sent (a client that percent-encodes plain letters on purpose is found by searching the escape).
 */
export const NOT_LITERAL_IN_URI = /[^a-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

/** URI matches as stored, and as decoded when the needle could only appear decoded; ascending, no repeats. */
function uriMatches(site: SiteWafIndex, needle: string, limit: number): ArrayLike<number> {
  const literal = site.uris.search(needle, limit);
  if (!NOT_LITERAL_IN_URI.test(needle)) return literal;
  const decoded = site.uris.searchDecoded(needle, limit);
  if (literal.length === 0) return decoded;
  return Uint32Array.from(new Set([...literal, ...decoded])).sort();
}

/** Exact total of matches below position `limit`, and `take` of them, newest first, after skipping `skip`. */
function pageOf(m: Matches, limit: number, skip: number, take: number): { total: number; positions: number[] } {
  const positions: number[] = [];
  if (m.kind === 'all' || m.kind === 'list') {
    const total = m.kind === 'all' ? limit : m.list.length;
    const at = m.kind === 'all' ? (k: number) => k : (k: number) => m.list[k];
    for (let k = total - 1 - skip; k >= 0 && positions.length < take; k--) positions.push(at(k));
    return { total, positions };
  }
  const { postings, key } = m;
  let p = postings.head(key);
  let newer = 0;
  // Events that arrived after the snapshot cursor come first in the chain: step over them.
  while (p !== 0 && p - 1 >= limit) {
    newer++;
    p = postings.prev.get(p - 1);
  }
  for (let i = 0; p !== 0 && i < skip; i++) p = postings.prev.get(p - 1);
  while (p !== 0 && positions.length < take) {
    positions.push(p - 1);
    p = postings.prev.get(p - 1);
  }
  return { total: postings.count(key) - newer, positions };
}

function row(site: SiteWafIndex, index: WafIndex, p: number, withAction: boolean): WafLogEntry {
  const t = index.tables;
  const entry: WafLogEntry = {
    id: site.ids.get(p),
    event_timestamp: new Date(site.ts.get(p)).toISOString(),
    client_ip: t.ips.values[site.ip.get(p)],
    uri: site.uris.get(p),
    waf_rule_id: t.rules.values[site.rule.get(p)],
    group: t.groups.values[site.group.get(p)],
    host: t.hosts.values[site.host.get(p)],
  };
  if (withAction) entry.action = eventAction(edgeActionOf(site.action.get(p)), entry.group, entry.waf_rule_id);
  return entry;
}

export function checkQuery(q: WafLogQuery): void {
  const isPosInt = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 1;
  if (!Number.isSafeInteger(q.site_id) || q.site_id < 0) throw new EventInputError('site_id must be a non-negative integer', -1);
  if (!isPosInt(q.page)) throw new EventInputError('page must be an integer >= 1', -1);
  if (!isPosInt(q.per_page) || q.per_page > 1000) throw new EventInputError('per_page must be an integer from 1 to 1000', -1);
  if (q.before_id !== undefined && (!Number.isSafeInteger(q.before_id) || q.before_id < 0)) {
    throw new EventInputError('before_id must be a non-negative integer', -1);
  }
}

export function searchWafLogs(index: WafIndex, q: WafLogQuery): WafLogResult {
  checkQuery(q);
  const asOf = q.before_id ?? index.maxId;
  const site = index.site(q.site_id);
  const filter = classifySearch(q.search, site);
  const empty: WafLogResult = { logs: [], pagination: { page: q.page, per_page: q.per_page, total: 0, total_pages: 0 }, as_of_id: asOf };
  if (!site) return empty;
  // Positions whose id is <= asOf form a prefix of the site's columns.
  const limit = countAtMost(site.length, (i) => site.ids.get(i), asOf);
  const m = findMatches(site, index, filter, limit);
  const { total, positions } = pageOf(m, limit, (q.page - 1) * q.per_page, q.per_page);
  const logs = positions.map((p) => row(site, index, p, q.with_action === true));
  return { logs, pagination: { page: q.page, per_page: q.per_page, total, total_pages: Math.ceil(total / q.per_page) }, as_of_id: asOf };
}

