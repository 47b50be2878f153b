// The edge's view of the live bans: per site, a map from address to ban for single addresses
// (one lookup per request, the common case: automatic bans name one client) and a short list of
// compiled ranges for CIDR bans. Built whole from the list of live bans each time it changes
// (bans change seldom, requests all the time) and swapped in, so a lookup never sees half an
// update. A ban past its expiry is ignored at lookup, before the next rebuild drops it.
import type { Ban } from '../../shared/schemas/bans.js';
import { compileIpSet, parseIp, type IpKey, type IpSet } from '../proxy/ip-set.js';

/** What a request check needs of a ban. */
export interface LiveBan {
  id: string;
  ip: string;
  reason: string;
  expiresAtMs: number;
}

export interface BanLookup {
  /** The ban that holds for this client on this site at `nowMs`, or null. */
  banned(siteId: number, client: IpKey, nowMs: number): LiveBan | null;
}

interface SiteBans {
  addresses: Map<string, LiveBan>;
  ranges: { set: IpSet; ban: LiveBan }[];
}

/** The key of an address: family and number, so any written form of one address finds it. */
const addressKey = (ip: IpKey): string => `${ip.v}:${ip.n}`;

export class BanTable implements BanLookup {
  #sites = new Map<number, SiteBans>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Replaces every ban with `bans` (those not revoked and not expired at `nowMs`). */
  replace(bans: readonly Ban[], nowMs: number): void {
    const sites = new Map<number, SiteBans>();
    let size = 0;
    for (const b of bans) {
      const expiresAtMs = Date.parse(b.expires_at);
      if (b.revoked_at !== null || !(expiresAtMs > nowMs)) continue;
      let site = sites.get(b.site_id);
      if (!site) sites.set(b.site_id, (site = { addresses: new Map(), ranges: [] }));
      const live: LiveBan = { id: b.id, ip: b.ip, reason: b.reason, expiresAtMs };
      const address = b.ip.includes('/') ? null : parseIp(b.ip);
      if (address) {
        const key = addressKey(address);
        const held = site.addresses.get(key);
        // Two bans of one address: the one that lasts longer answers.
        if (!held || held.expiresAtMs < expiresAtMs) site.addresses.set(key, live);
      } else {
        let set: IpSet;
        try {
          set = compileIpSet([b.ip]);
        } catch {
          continue; // not an address or range (the schemas refuse these; never let one stop the rest)
        }
        site.ranges.push({ set, ban: live });
      }
      size++;
    }
    this.#sites = sites;
    this.#size = size;
  }

  banned(siteId: number, client: IpKey, nowMs: number): LiveBan | null {
    if (this.#size === 0) return null;
    const site = this.#sites.get(siteId);
    if (!site) return null;
    const hit = site.addresses.get(addressKey(client));
    if (hit && hit.expiresAtMs > nowMs) return hit;
    for (const r of site.ranges) if (r.ban.expiresAtMs > nowMs && r.set.has(client)) return r.ban;
    return null;
  }
}
