import { canonicalIpOrCidr, parseIpRange } from '../../../shared/schemas/ip.js';
import type { IpListType, IpRule, IpRules } from '../../../shared/schemas/management-api.js';
import { WafctlError } from '../../../shared/errors.js';
import { PLAN_LIMITS, type PlanTier } from '../../../shared/plans.js';

// IP list changes as pure operations on a site's lists (DESIGN.md section 5): canonical form,
// 409 `duplicate` in the same list or naming the other list, 403 `limit_exceeded` by plan. The
// caller runs them inside the config store's serialized update, so a check and its write are one step.
// Stored entries are compared by their canonical form, so an entry stored before a canonical form
// changed (::ffff:a00:0/104, now 10.0.0.0/8) still counts as a duplicate and can be removed.

const LIMIT_KEY = { whitelist: 'whitelistIps', blacklist: 'blacklistIps' } as const;
const OTHER_LIST: Record<IpListType, IpListType> = { whitelist: 'blacklist', blacklist: 'whitelist' };

export function addIpRule(
  lists: IpRules,
  list: IpListType,
  input: { ip: string; description: string },
  plan: PlanTier,
  now: Date,
): IpRule {
  const parsed = parseIpRange(input.ip);
  if (!parsed.ok) {
    throw new WafctlError('validation_error', `ip: must be an IPv4 or IPv6 address or CIDR range: ${JSON.stringify(input.ip.slice(0, 80))} ${parsed.reason}`);
  }
  const ip = parsed.range.text;
  if (lists[list].some((rule) => sameEntry(rule.ip, ip))) {
    throw new WafctlError('duplicate', `${ip} is already in the ${list}`);
  }
  const other = OTHER_LIST[list];
  if (lists[other].some((rule) => sameEntry(rule.ip, ip))) {
    throw new WafctlError('duplicate', `${ip} is already in the ${other}; remove it there first`);
  }
  const limit = PLAN_LIMITS[plan][LIMIT_KEY[list]];
  if (lists[list].length >= limit) {
    throw new WafctlError('limit_exceeded', `The ${plan} plan allows at most ${limit} entries in the ${list}`);
  }
  const rule: IpRule = { ip, description: input.description, added_at: now.toISOString() };
  lists[list].push(rule);
  return rule;
}

export function removeIpRule(lists: IpRules, list: IpListType, rawIp: string): IpRule {
  const ip = canonicalIpOrCidr(rawIp);
  // An entry the parser refuses (config.json edited by hand) is removed by its exact text: the
  // API is how it gets fixed, while the edge serves that site on its last good rules.
  const index = lists[list].findIndex((rule) => (ip === null ? rule.ip === rawIp.trim() : sameEntry(rule.ip, ip)));
  if (index < 0) throw new WafctlError('not_found', `${rawIp.trim()} is not in the ${list}`);
  const [removed] = lists[list].splice(index, 1);
  return removed;
}

function sameEntry(stored: string, canonical: string): boolean {
  return stored === canonical || canonicalIpOrCidr(stored) === canonical;
}
