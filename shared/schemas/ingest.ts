import { z } from 'zod';
import { IpAddressSchema } from './ip.js';

// Log ingestion entries (spec 2.8, 2.9). Timestamps must be integers: WAF events in milliseconds,
// access entries in seconds; strings are refused. Unknown extra fields are accepted and dropped.

// The bounds are exported for the daemon's hot-path twin of these schemas (daemon/ingest/entry-check.ts),
// which is property-tested to accept and refuse exactly what they do.
export const MAX_URI = 8192;
export const MAX_TEXT = 4096;
export const MAX_HOST = 253;
export const MAX_METHOD = 32;
export const MAX_WAF_FILE = 1024;
export const MAX_RULE_ID = 32;
export const HTTP_METHOD_TOKEN = /^[A-Za-z][A-Za-z-]*$/;
const HTTP_METHOD = z.string().min(1).max(MAX_METHOD).regex(HTTP_METHOD_TOKEN, 'must be an HTTP method token');
const HOST = z.string().min(1).max(MAX_HOST);

// 2001-09-09 .. 2100-01-01: catches seconds sent as milliseconds and the reverse.
export const MS_MIN = 1_000_000_000_000;
export const MS_MAX = 4_102_444_800_000;

export const SEVERITIES = ['CRITICAL', 'WARNING', 'NOTICE'] as const;

export const WafEventInSchema = z.object({
  timestamp_ms: z.number().int('must be an integer (milliseconds)').min(MS_MIN, 'must be Unix time in milliseconds').max(MS_MAX, 'must be Unix time in milliseconds'),
  host: HOST,
  client_ip: IpAddressSchema,
  uri: z.string().min(1).max(MAX_URI),
  method: HTTP_METHOD,
  waf_file: z.string().max(MAX_WAF_FILE),
  rule_id: z.string().min(1).max(MAX_RULE_ID),
  severity: z.enum(SEVERITIES),
  msg: z.string().max(MAX_TEXT),
  user_agent: z.string().max(MAX_TEXT).optional(),
  referer: z.string().max(MAX_URI).optional(),
  matched_var: z.string().max(MAX_TEXT).optional(),
  matched_data: z.string().max(MAX_TEXT).optional(),
});
export type WafEventIn = z.infer<typeof WafEventInSchema>;

export const AccessEntryInSchema = z.object({
  timestamp: z.number().int('must be an integer (seconds)').min(MS_MIN / 1000, 'must be Unix time in seconds').max(MS_MAX / 1000, 'must be Unix time in seconds'),
  host: HOST,
  client_ip: IpAddressSchema,
  uri: z.string().min(1).max(MAX_URI),
  method: HTTP_METHOD,
  status: z.number().int().min(100).max(599),
  bytes_sent: z.number().int().nonnegative(),
  user_agent: z.string().max(MAX_TEXT).optional(),
  referer: z.string().max(MAX_URI).optional(),
  request_time: z.number().nonnegative().finite().optional(),
  upstream_time: z.number().nonnegative().finite().optional(),
});
export type AccessEntryIn = z.infer<typeof AccessEntryInSchema>;

export const IngestSuccessSchema = z.object({ message: z.string(), processed: z.number().int() });
export const IngestPartialSchema = IngestSuccessSchema.extend({
  errors: z.array(z.object({ index: z.number().int(), error: z.string() })),
});
export const IngestErrorSchema = z.object({ message: z.string(), errors: z.array(z.string()) });
export const IngestRateLimitedSchema = z.object({ message: z.string(), retry_after: z.number().int() });

/** `field: problem` from a zod error, the form the ingestion API reports per entry. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(entry)'}: ${issue.message}`).join('; ');
}
