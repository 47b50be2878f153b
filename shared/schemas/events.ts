// Event shapes: what the event store keeps (spec 2.8 / 2.9 plus the store's own fields) and
// what its readers return (spec 2.3 analytics, 2.4 WAF log entry + pagination).
// The daemon validates ingested entries with these before they reach the store; the client
// parses API answers with the read shapes.
import { z } from 'zod';
import { REQUEST_ACTIONS } from './waf-request.js';

const int = z.number().int();
const nonNegInt = int.nonnegative();

export const WafSeveritySchema = z.enum(['CRITICAL', 'WARNING', 'NOTICE']);

/** Spec 2.8: one WAF event as submitted to POST /api/vector/waf. */
export const WafEventInputSchema = z.object({
  timestamp_ms: nonNegInt,
  host: z.string().min(1),
  client_ip: z.string().min(1),
  uri: z.string(),
  method: z.string().min(1),
  waf_file: z.string(),
  rule_id: z.string().min(1),
  severity: WafSeveritySchema,
  msg: z.string(),
  user_agent: z.string().optional(),
  referer: z.string().optional(),
  matched_var: z.string().optional(),
  matched_data: z.string().optional(),
});
export type WafEventInput = z.infer<typeof WafEventInputSchema>;

/** A WAF event handed to the store: spec 2.8 plus the site it belongs to and the rule group. */
export const NewWafEventSchema = WafEventInputSchema.extend({
  site_id: nonNegInt,
  group: z.string().min(1),
  request_id: z.string().optional(),
  /** What the edge did: `block`, `drop`, `log` (detection only), ... */
  action: z.string().optional(),
  /** ISO 3166-1 alpha-2 of the client, when known. */
  country: z.string().optional(),
  /** The matched rule's tags (stored by the edge; ingested events and events stored by older versions have none). */
  tags: z.array(z.string()).optional(),
});
export type NewWafEvent = z.infer<typeof NewWafEventSchema>;

/** A stored WAF event: one line of `events/waf-YYYY-MM-DD.jsonl`. */
export const StoredWafEventSchema = NewWafEventSchema.extend({ id: z.number().int().positive() });
export type StoredWafEvent = z.infer<typeof StoredWafEventSchema>;

/** Spec 2.9: one access log entry as submitted to POST /api/vector/access. */
export const AccessEntryInputSchema = z.object({
  timestamp: nonNegInt,
  host: z.string().min(1),
  client_ip: z.string().min(1),
  uri: z.string(),
  method: z.string().min(1),
  status: int.min(100).max(999),
  bytes_sent: nonNegInt,
  user_agent: z.string().optional(),
  referer: z.string().optional(),
  request_time: z.number().nonnegative().optional(),
  upstream_time: z.number().nonnegative().optional(),
});
export type AccessEntryInput = z.infer<typeof AccessEntryInputSchema>;

/**
 * An access entry handed to the store. `blocked` is set by the proxy; ingested entries leave
 * it out and the store stores `blocked = (status === 403)` (DESIGN section 5, Analytics).
 */
export const NewAccessEntrySchema = AccessEntryInputSchema.extend({
  site_id: nonNegInt,
  blocked: z.boolean().optional(),
  /** Set by the edge when the exchange with the origin failed: why (ECONNREFUSED, ECONNRESET, ...). */
  upstream_error: z.string().optional(),
});
export type NewAccessEntry = z.infer<typeof NewAccessEntrySchema>;

/** A stored access entry: one line of `events/access-YYYY-MM-DD.jsonl`. */
export const StoredAccessEntrySchema = AccessEntryInputSchema.extend({
  id: z.number().int().positive(),
  site_id: nonNegInt,
  blocked: z.boolean(),
  upstream_error: z.string().optional(),
});
export type StoredAccessEntry = z.infer<typeof StoredAccessEntrySchema>;

// ---- read side

export const AnalyticsPeriodSchema = z.enum(['24h', '7d', '30d', '90d']);
export type AnalyticsPeriod = z.infer<typeof AnalyticsPeriodSchema>;

/** Hours in each period: one hourly_data point per UTC hour. */
export const PERIOD_HOURS: Record<AnalyticsPeriod, number> = { '24h': 24, '7d': 168, '30d': 720, '90d': 2160 };

export const HourlyPointSchema = z.object({
  hour: z.string(),
  requests: nonNegInt,
  blocked: nonNegInt,
});
export type HourlyPoint = z.infer<typeof HourlyPointSchema>;

/** Spec 2.3. */
export const AnalyticsSchema = z.object({
  period: AnalyticsPeriodSchema,
  total_requests: nonNegInt,
  unique_visitors: nonNegInt,
  requests_blocked: nonNegInt,
  hourly_data: z.array(HourlyPointSchema),
});
export type Analytics = z.infer<typeof AnalyticsSchema>;

/** Spec 2.4. */
export const WafLogEntrySchema = z.object({
  id: z.number().int().positive(),
  event_timestamp: z.string(),
  client_ip: z.string(),
  uri: z.string(),
  waf_rule_id: z.string(),
  group: z.string(),
  host: z.string(),
  /**
   * Not in spec 2.4: present only when asked with `include=action` (wafctl does), so a row of a
   * detect-mode match says `detected` instead of looking like a block.
   */
  action: z.enum(REQUEST_ACTIONS).optional(),
});
export type WafLogEntry = z.infer<typeof WafLogEntrySchema>;

export const PaginationSchema = z.object({
  page: int.min(1),
  per_page: int.min(1),
  total: nonNegInt,
  total_pages: nonNegInt,
});
export type Pagination = z.infer<typeof PaginationSchema>;

/** GET /waf-logs `data`. */
export const WafLogPageSchema = z.object({
  logs: z.array(WafLogEntrySchema),
  pagination: PaginationSchema,
});
export type WafLogPage = z.infer<typeof WafLogPageSchema>;
