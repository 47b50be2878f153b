// Top lists of a period (GET /api/v1/analytics?top=KIND&limit=N, not a spec 2.3 field: the spec
// is silent on extra parameters, and /analytics answers exactly 2.3 without them). The daemon
// builds them from the event store; the CLI and the analytics view parse them with these.
import { z } from 'zod';

/** What a list ranks: client IPs, URI paths and statuses, countries (access entries), rule ids (WAF events). */
export const TOP_KINDS = ['ips', 'uris', 'rules', 'countries', 'statuses'] as const;
export type TopKind = (typeof TOP_KINDS)[number];

export const TOP_LIMIT_MAX = 100;
export const TOP_LIMIT_DEFAULT = 10;

/** The key of requests whose country is not known (private or unlisted addresses). */
export const UNKNOWN_COUNTRY = 'unknown';

const count = z.number().int().nonnegative();

export const TopItemSchema = z.object({
  /** The IP, the URI path (no query string), the rule id, the country code or the status. */
  key: z.string(),
  /** Requests (access kinds) or WAF events (rules) with this key in the period. */
  count,
  /** Of those, the blocked requests; for rules, the events whose request was blocked or dropped. */
  blocked: count,
  /** Rules only: the rule's group. */
  group: z.string().optional(),
});
export type TopItem = z.infer<typeof TopItemSchema>;

export const TopListSchema = z.object({
  kind: z.enum(TOP_KINDS),
  limit: z.number().int().min(1).max(TOP_LIMIT_MAX),
  /** Requests (or WAF events for rules) in the period: the base of each item's share. */
  total: count,
  /** Distinct keys seen in the period. */
  distinct: count,
  /** False when the period had more distinct keys than the daemon counts one by one: counts are then lower bounds. */
  exact: z.boolean(),
  /** Highest count first, then by key. */
  items: z.array(TopItemSchema),
});
export type TopList = z.infer<typeof TopListSchema>;
