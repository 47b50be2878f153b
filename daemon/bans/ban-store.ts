// Where bans are kept: a file on a single node (file-ban-store.ts), PostgreSQL in a cluster
// (pg-ban-store.ts). The store holds the records (live ones and, for `bans list --all`, those
// that ended within the last week); the ban service (ban-service.ts) decides what to add.
import type { Ban } from '../../shared/schemas/bans.js';

/** How long a ban that ended (expired or revoked) stays listed. */
export const ENDED_BANS_KEPT_MS = 7 * 86_400_000;

export interface BanStore {
  /** Every ban known, live and recently ended, oldest first. */
  all(): readonly Ban[];
  /** Resolves once the ban is durable (and, in a cluster, visible to every node soon after). */
  add(ban: Ban): Promise<void>;
  /** Ends every active ban of exactly `ip` on the site at `at` (ISO); resolves with those bans. */
  revoke(siteId: number, ip: string, at: string): Promise<Ban[]>;
  /** Called after any change to all(), from this node or another. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

/** Active at `nowMs`: not revoked and not expired. */
export const isActive = (b: Ban, nowMs: number): boolean => b.revoked_at === null && Date.parse(b.expires_at) > nowMs;

/** Whether a record is still worth keeping at `nowMs`: active, or ended within the last week. */
export function isKept(b: Ban, nowMs: number): boolean {
  const ended = b.revoked_at !== null ? Date.parse(b.revoked_at) : Date.parse(b.expires_at);
  return ended > nowMs - ENDED_BANS_KEPT_MS;
}
