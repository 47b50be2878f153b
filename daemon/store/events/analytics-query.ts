// The checks of an /analytics query, shared by every event store: a store answers only a query
// that names a known period, a site id and a finite "now".
import { AnalyticsPeriodSchema, type AnalyticsPeriod } from '../../../shared/schemas/events.js';
import { EventInputError, type AnalyticsQuery } from '../event-store.js';

export interface CheckedAnalyticsQuery {
  site_id: number;
  period: AnalyticsPeriod;
  now: number;
}

/** Throws EventInputError for a bad query; `clock` gives "now" when the query has none. */
export function checkAnalyticsQuery(query: AnalyticsQuery, clock: () => number): CheckedAnalyticsQuery {
  const period = AnalyticsPeriodSchema.safeParse(query.period);
  if (!period.success) throw new EventInputError('period must be one of 24h, 7d, 30d, 90d', -1);
  if (!Number.isSafeInteger(query.site_id) || query.site_id < 0) throw new EventInputError('site_id must be a non-negative integer', -1);
  const now = query.now ?? clock();
  if (!Number.isFinite(now)) throw new EventInputError('now must be a number (ms since the epoch)', -1);
  return { site_id: query.site_id, period: period.data, now };
}
