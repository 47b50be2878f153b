// GET /waf-logs/{id}: one request explained. The spec is silent on this path; it adds
// nothing to the spec 2.4 rows of GET /waf-logs. `id` is a WAF event id (a row of /waf-logs) or
// the request id printed on the block page; the answer groups every event of that request.
import { z } from 'zod';

export const REQUEST_ACTIONS = ['blocked', 'detected', 'challenged', 'rate-limited', 'unknown'] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];

export const WafRequestRuleSchema = z.object({
  id: z.number().int().positive(),
  rule_id: z.string(),
  group: z.string(),
  msg: z.string(),
  severity: z.string(),
  /** What the edge did for this match: `block`, `log` (passed: detect mode), or null when not stored. */
  action: z.string().nullable(),
  /** The variable that matched, e.g. `ARGS:post_content`. */
  matched_var: z.string().nullable(),
  /** What matched: cut to 200 characters, control bytes escaped, a credential or cookie masked. */
  matched_data: z.string().nullable(),
  /** The rule's tags as the edge stored them, e.g. `attack-xss`, `paranoia-level/1`; [] when none were stored. */
  tags: z.array(z.string()),
  /** The rule file (CRS files name the attack class, e.g. REQUEST-941-APPLICATION-ATTACK-XSS.conf). */
  file: z.string(),
});
export type WafRequestRule = z.infer<typeof WafRequestRuleSchema>;

export const WafRequestDetailSchema = z.object({
  request_id: z.string().nullable(),
  event_timestamp: z.string(),
  host: z.string(),
  client_ip: z.string(),
  /** ISO 3166-1 alpha-2, or null when unknown. */
  country: z.string().nullable(),
  method: z.string(),
  uri: z.string(),
  /** The status the edge answered with, when its access entry was stored (a drop has none). */
  status: z.number().int().nullable(),
  action: z.enum(REQUEST_ACTIONS),
  user_agent: z.string().nullable(),
  /** CRS inbound anomaly score (from rule 949110's message) and the site's current threshold. */
  anomaly: z.object({ inbound_score: z.number().int(), inbound_threshold: z.number().int() }).nullable(),
  rules: z.array(WafRequestRuleSchema),
});
export type WafRequestDetail = z.infer<typeof WafRequestDetailSchema>;

/** The path parameter: an event id (digits) or a request id (UUID). */
export const WafRequestIdParamSchema = z.object({
  id: z
    .string()
    .trim()
    .refine((v) => /^[1-9]\d{0,15}$/.test(v) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v), {
      message: 'must be a WAF event id (a positive integer) or a request id (a UUID, as on the block page)',
    }),
});
