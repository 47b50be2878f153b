import { createRequire } from 'node:module';
import type { EdgeRequest } from '../edge-request.js';
import type { IpKey } from '../ip-set.js';
import type { Block } from './outcome.js';

// Step 4. The country is looked up for every request (it goes on every event), so the lookup is
// here once and the check only compares. An address geoip-country does not know (private,
// loopback, unallocated) has country '': whitelist mode blocks it, blacklist mode lets it pass.

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

export function checkGeo(req: EdgeRequest): Block | null {
  const geo = req.site.geo;
  if (!geo) return null;
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
