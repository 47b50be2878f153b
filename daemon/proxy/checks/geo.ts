import { createRequire } from 'node:module';
import type { EdgeRequest } from '../edge-request.js';
import { compileIpSet, type IpKey } from '../ip-set.js';
import type { Block } from './outcome.js';

// Step 4. The country is looked up for every request (it goes on every event), so the lookup is
// here once and the check only compares. An address geoip-country does not know has country ''.
// Loopback and private networks (LOCAL_NETWORKS) are in no country: geo rules leave them alone in
// both modes, so a whitelist does not lock out health checks, WP-Cron's loopback and tools on the
// machine or its LAN (CrowdSec's default whitelist makes the same choice). Any other
// address with no country (unallocated, new) is blocked by a whitelist and passes a blacklist.

const require = createRequire(import.meta.url);
const geoip = require('geoip-country') as { lookup(ip: string): { country: string } | null };

// The lookup is a few microseconds; clients repeat, so remember the answer (bounded: emptied when full).
const cache = new Map<string, string>();
const CACHE_LIMIT = 50_000;

export function countryOf(ip: IpKey): string {
  let country = cache.get(ip.text);
  if (country === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    country = geoip.lookup(ip.text)?.country ?? '';
    cache.set(ip.text, country);
  }
  return country;
}

/** Loopback, RFC 1918, carrier-grade NAT, link-local; IPv6 loopback, unique local, link-local. */
export const LOCAL_NETWORKS = compileIpSet([
  '127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '::1/128', 'fc00::/7', 'fe80::/10',
]);

export function checkGeo(req: EdgeRequest): Block | null {
  const geo = req.site.geo;
  if (!geo) return null;
  if (req.country === '' && LOCAL_NETWORKS.has(req.client)) return null;
  const listed = req.country !== '' && geo.countries.has(req.country);
  const blocked = geo.mode === 'whitelist' ? !listed : listed;
  if (!blocked) return null;
  return {
    kind: 'block', group: 'geo', ruleId: `geo-${geo.mode}`, severity: 'CRITICAL',
    msg: geo.mode === 'whitelist'
      ? `Country ${req.country || 'unknown'} is not on the site's allowed list`
      : `Country ${req.country} is on the site's blocked list`,
    matchedVar: 'GEO:COUNTRY_CODE', matchedData: req.country,
  };
}
