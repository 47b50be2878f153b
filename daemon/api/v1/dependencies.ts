import type { Analytics, AnalyticsPeriod, WafLogs, WafLogsQuery } from '../../../shared/schemas/management-api.js';
import type { TopKind, TopList } from '../../../shared/schemas/top-lists.js';
import type { RequestEvents, RequestKey } from '../../store/events/request-lookup.js';
import type { StoredSite } from '../../../shared/schemas/site.js';
import type { WindowCounter } from '../rate-limit.js';
import type { FeatureKey, PlanTier } from '../../../shared/plans.js';

// What the management API needs from the rest of the daemon; app.ts wires the real stores.

export interface ManagementDependencies {
  findSiteByKeyHash(hash: string): StoredSite | undefined;
  /** Runs `change` on the site's stored record inside the config store's single writer and persists it
   *  before resolving; when `change` throws, nothing is written. */
  updateSite<T>(siteId: number, change: (site: StoredSite) => T): Promise<T>;
  wafLogs(siteId: number, query: WafLogsQuery, now: Date): Promise<WafLogs>;
  /** The stored WAF events of one request (GET /waf-logs/{id}). */
  wafRequest(siteId: number, key: RequestKey): Promise<RequestEvents>;
  analytics(siteId: number, period: AnalyticsPeriod, now: Date): Promise<Analytics>;
  /** GET /analytics?top=KIND: the `limit` most frequent keys of the period. */
  topList(siteId: number, period: AnalyticsPeriod, kind: TopKind, limit: number, now: Date): Promise<TopList>;
  /** Answers POST /wp/vulnerabilities/check with the spec 2.7 top-level shape (without `success`). */
  checkVulnerabilities(body: unknown, now: Date): Promise<Record<string, unknown>>;
  counter: WindowCounter;
  now(): number;
  /** Which plan has which feature; the table in shared/plans.ts unless a test or a reseller build says otherwise. */
  hasFeature?(plan: PlanTier, feature: FeatureKey): boolean;
}
