import { Pool } from 'undici';
import type { CompiledSite, EdgeSnapshot } from './snapshot.js';

// One keep-alive undici Pool per origin (scheme://host:port), shared by all sites and all
// snapshots that point there. When a new snapshot drops an origin, its pool is closed
// gracefully: requests already on it finish first.

export interface OriginTimeouts {
  /** TCP/TLS connect to the origin (504 when exceeded). */
  connectMs: number;
  /** From request sent to response headers (504 when exceeded). */
  headersMs: number;
  /** Longest silence while streaming a response body (the response is cut). */
  bodyIdleMs: number;
}

export const DEFAULT_TIMEOUTS: OriginTimeouts = { connectMs: 5_000, headersMs: 60_000, bodyIdleMs: 60_000 };

export class OriginPools {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly timeouts: OriginTimeouts, private readonly connectionsPerOrigin = 64) {}

  get(site: CompiledSite): Pool {
    let pool = this.pools.get(site.originKey);
    if (!pool) {
      pool = new Pool(site.originKey, {
        connections: this.connectionsPerOrigin,
        pipelining: 1,
        keepAliveTimeout: 60_000,
        keepAliveMaxTimeout: 600_000,
        connect: { timeout: this.timeouts.connectMs, rejectUnauthorized: true },
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyIdleMs,
      });
      this.pools.set(site.originKey, pool);
    }
    return pool;
  }

  /** Closes pools of origins the snapshot no longer uses. */
  retainOnly(snapshot: EdgeSnapshot): void {
    const used = new Set(snapshot.sites.map((s) => s.originKey));
    for (const [key, pool] of this.pools) {
      if (!used.has(key)) {
        this.pools.delete(key);
        pool.close().catch(() => {});
      }
    }
  }

  async closeAll(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => {})));
  }
}
