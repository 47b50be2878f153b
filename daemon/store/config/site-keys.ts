import type { StoredSite } from '../../../shared/schemas/site.js';
import type { ConfigSnapshot } from './config-store.js';
import { isSiteKeyFormat, secretMatchesHash, sha256Hex } from './secrets.js';

// Finding the site of an X-Service-Key: the key is hashed and looked up in a map built once per
// snapshot (compile at load), then confirmed with a constant-time comparison. Deleted and inactive
// sites are found too: the API answers site_deleted / site_inactive for them (spec 5.6).

export type KeyLookup =
  | { ok: true; site: StoredSite }
  | { ok: false; reason: 'invalid_api_key_format' | 'invalid_api_key' };

const indexes = new WeakMap<ConfigSnapshot, Map<string, StoredSite>>();

function indexFor(snapshot: ConfigSnapshot): Map<string, StoredSite> {
  let index = indexes.get(snapshot);
  if (!index) {
    index = new Map();
    for (const site of snapshot.sites) if (site.key_hash !== null) index.set(site.key_hash, site);
    // Only frozen snapshots are cached: a draft can still change under the index.
    if (Object.isFrozen(snapshot)) indexes.set(snapshot, index);
  }
  return index;
}

export function siteForApiKey(snapshot: ConfigSnapshot, key: string): KeyLookup {
  if (!isSiteKeyFormat(key)) return { ok: false, reason: 'invalid_api_key_format' };
  const site = indexFor(snapshot).get(sha256Hex(key));
  if (!site || site.key_hash === null || !secretMatchesHash(key, site.key_hash)) return { ok: false, reason: 'invalid_api_key' };
  return { ok: true, site };
}
