// The event store contract: what the proxy, the ingestion API, /waf-logs, /analytics and the
// TUI need from storage of WAF events and access entries. The JSON Lines store
// (daemon/store/events/) implements it; a PostgreSQL store can implement it later.
// Semantics are documented in daemon/store/events/README.md.
import type { WriteFailure } from '../../shared/schemas/admin.js';
import type {
  Analytics,
  AnalyticsPeriod,
  NewAccessEntry,
  NewWafEvent,
  WafLogEntry,
  Pagination,
} from '../../shared/schemas/events.js';
import type { TopList } from '../../shared/schemas/top-lists.js';
import type { RequestEvents, RequestKey } from './events/request-lookup.js';
import type { TopListQuery } from './events/top-lists.js';

export type { TopListQuery };

export interface WafLogQuery {
  site_id: number;
  /** 1-based. */
  page: number;
  per_page: number;
  /**
   * Case-insensitive. An IP address matches that client IP exactly, a CIDR matches contained
   * client IPs (v4 and v6), all digits match the rule id exactly, a rule group name of the site
   * (`crs`, `cms`) matches the group, anything else is a URI substring. Prefixes force a
   * kind: `ip:`, `rule:`, `group:`, `uri:`. A request id (a UUID, as on the block page) finds
   * the events of that request.
   */
  search?: string;
  /**
   * Snapshot cursor: only events with id <= before_id are counted and listed. Pass the
   * `as_of_id` of page 1 when asking for page 2, 3, ... so that events arriving meanwhile do
   * not shift pages. Omitted: the newest id at query time.
   */
  before_id?: number;
  /** Add each row's `action` (blocked, detected...): wafctl asks for it; spec 2.4 rows have no such field. */
  with_action?: boolean;
}

export interface WafLogResult {
  logs: WafLogEntry[];
  pagination: Pagination;
  /** Highest id the answer considered; hand back as `before_id` for the next pages. */
  as_of_id: number;
}

export interface AnalyticsQuery {
  site_id: number;
  period: AnalyticsPeriod;
  /** "Now" in ms since the epoch; defaults to the store's clock. */
  now?: number;
}

export interface RetentionReport {
  /** Segment files deleted, e.g. `waf-2026-08-01.jsonl`. */
  deleted: string[];
  /** Oldest UTC day (YYYY-MM-DD) kept. */
  kept_from: string;
}

export interface EventStoreStats {
  waf_events: number;
  /** Lines skipped because they were not valid JSON entries (hand-edited segments). */
  invalid_lines: number;
  /** Bytes cut from torn last lines at open. */
  torn_bytes_cut: number;
  /** Highest id handed out so far. */
  last_id: number;
}

export interface EventStore {
  /**
   * Stores WAF events. Resolves with their ids (in input order) once they are written and
   * fsynced; rejects (and stores nothing) on bad input or on any write/fsync error.
   */
  appendWafEvents(events: readonly NewWafEvent[]): Promise<number[]>;
  /** Same for access entries. */
  appendAccessEntries(entries: readonly NewAccessEntry[]): Promise<number[]>;
  /** /waf-logs: newest first, exact total. */
  searchWafLogs(query: WafLogQuery): Promise<WafLogResult>;
  /**
   * `logs show`: the WAF events of one request of the site (found by one event's id or by the
   * request id), oldest first, and the status the edge answered with when it was stored.
   */
  wafRequest(siteId: number, key: RequestKey): Promise<RequestEvents>;
  /** /analytics from hourly rollups. */
  analytics(query: AnalyticsQuery): Promise<Analytics>;
  /** Top IPs, URIs, rules, countries or statuses of a period, read from the period's segments. */
  topList(query: TopListQuery): Promise<TopList>;
  /** Drops whole day segments older than `retention_days` before `now`. */
  applyRetention(now?: number): Promise<RetentionReport>;
  stats(): EventStoreStats;
  /** Appends failing now (a full disk, a permission), or null; for `wafctl daemon status`. Optional:
   *  a store that cannot tell leaves it out. */
  writeFailure?(): WriteFailure | null;
  /** Waits for pending appends, writes the index snapshot, closes files. */
  close(): Promise<void>;
}

/** Thrown (as a rejection) for entries the store cannot take; nothing of the call is stored. */
export class EventInputError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
    this.name = 'EventInputError';
  }
}

/** Thrown when the store is closed or its disk refused a write. */
export class EventStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventStoreError';
  }
}
