// Every PostgreSQL advisory lock the cluster takes, in one table: the ids share one namespace per
// database, so two features that picked the same constant would block (or, worse, exclude) each
// other. Four ASCII letters each ("waf" and one more), for a reader of pg_locks.
export const ADVISORY_LOCKS = {
  /** The config table's creation and first seed (config-table.ts). */
  configSchema: 0x77616663, // "wafc"
  /** The events tables' creation (events/events-schema.ts). */
  eventsSchema: 0x77616665, // "wafe"
  /** The partition and retention job: one node at a time (events/partition-job.ts). */
  partitionJob: 0x77616670, // "wafp"
  /** Shipping transactions (shared) against a search fixing its snapshot (exclusive) (events/ship-batch.ts). */
  eventsSnapshot: 0x77616673, // "wafs"
  /** Folding access rollup deltas into hourly and daily rows: one node at a time (events/access-compactor.ts). */
  accessCompaction: 0x77616172, // "wafr"
  /** The bans table's creation (bans/pg-ban-store.ts). */
  bansSchema: 0x77616662, // "wafb"
  /** The secrets table's creation and first values (shared-secret.ts). */
  secrets: 0x7761666b, // "wafk"
} as const;
