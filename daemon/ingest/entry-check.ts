import {
  AccessEntryInSchema,
  HTTP_METHOD_TOKEN,
  MAX_HOST,
  MAX_METHOD,
  MAX_RULE_ID,
  MAX_TEXT,
  MAX_URI,
  MAX_WAF_FILE,
  MS_MAX,
  MS_MIN,
  WafEventInSchema,
  type AccessEntryIn,
  type WafEventIn,
} from '../../shared/schemas/ingest.js';
import { IpAddressSchema } from '../../shared/schemas/ip.js';
import { plainIpv6 } from '../../shared/ipv6-text.js';

// The hot-path twin of the zod entry schemas (shared/schemas/ingest.ts): straight-line checks that
// accept exactly what the schemas accept and build the same output (known fields only, in the
// schema's order, unknown fields dropped). They answer only "accepted, here is the entry" or "no";
// for a refused entry the caller asks zod, so every error message and path is zod's own. Zod costs
// about 7 us an entry here; this, well under 1. test/daemon/ingest/entry-check.test.ts holds the two
// to the same answers with fast-check, so a change to the schemas that is not mirrored here fails.

const SEVERITY = new Set<unknown>(['CRITICAL', 'WARNING', 'NOTICE']);

// A dotted quad without leading zeros, each part 0-255: the common client_ip, and exactly the
// strings ipaddr.js's isValidFourPartDecimal accepts that have no space around them. IPv6 in its
// plain spelling (hex groups, one `::` at most) is read by plainIpv6, which only takes what
// ipaddr.js's IPv6.isValid takes (~0.3 us against the schema's 1.5-3). Anything else (embedded
// IPv4, zone ids, surrounding spaces) goes through the schema's own check.
const PLAIN_IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const isString = (v: unknown, min: number, max: number): v is string =>
  typeof v === 'string' && v.length >= min && v.length <= max;

/** z.number().int().min(lo).max(hi): a finite safe integer in range. */
const isIntIn = (v: unknown, lo: number, hi: number): v is number =>
  Number.isSafeInteger(v) && (v as number) >= lo && (v as number) <= hi;

const isClientIp = (v: unknown): v is string =>
  typeof v === 'string' && v.length <= 64 && (PLAIN_IPV4.test(v) || plainIpv6(v) !== null || IpAddressSchema.safeParse(v).success);

const isMethod = (v: unknown): v is string => isString(v, 1, MAX_METHOD) && HTTP_METHOD_TOKEN.test(v);

/** z.number().nonnegative().finite(): not NaN, not infinite, >= 0 (-0 included). */
const isDuration = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

type Out = Record<string, unknown>;

/**
 * An optional field: absent stays absent; present (even as undefined, as zod keeps it) is checked
 * and copied. Returns false when the value is refused.
 */
function optional(raw: Out, out: Out, key: string, ok: (v: unknown) => boolean): boolean {
  const v = raw[key];
  if (v === undefined) {
    if (key in raw) out[key] = undefined;
    return true;
  }
  if (!ok(v)) return false;
  out[key] = v;
  return true;
}

const isObject = (raw: unknown): raw is Out => typeof raw === 'object' && raw !== null && !Array.isArray(raw);
const text = (max: number) => (v: unknown) => isString(v, 0, max);
const UA = text(MAX_TEXT);
const REFERER = text(MAX_URI);

/** The entry as WafEventInSchema would output it, or null when the schema refuses it. */
export function checkWafEvent(raw: unknown): WafEventIn | null {
  if (!isObject(raw)) return null;
  const { timestamp_ms, host, client_ip, uri, method, waf_file, rule_id, severity, msg } = raw;
  if (
    !isIntIn(timestamp_ms, MS_MIN, MS_MAX) ||
    !isString(host, 1, MAX_HOST) ||
    !isClientIp(client_ip) ||
    !isString(uri, 1, MAX_URI) ||
    !isMethod(method) ||
    !isString(waf_file, 0, MAX_WAF_FILE) ||
    !isString(rule_id, 1, MAX_RULE_ID) ||
    !SEVERITY.has(severity) ||
    !isString(msg, 0, MAX_TEXT)
  ) return null;
  const out: Out = { timestamp_ms, host, client_ip, uri, method, waf_file, rule_id, severity, msg };
  if (
    !optional(raw, out, 'user_agent', UA) ||
    !optional(raw, out, 'referer', REFERER) ||
    !optional(raw, out, 'matched_var', UA) ||
    !optional(raw, out, 'matched_data', UA)
  ) return null;
  return out as WafEventIn;
}

/** The entry as AccessEntryInSchema would output it, or null when the schema refuses it. */
export function checkAccessEntry(raw: unknown): AccessEntryIn | null {
  if (!isObject(raw)) return null;
  const { timestamp, host, client_ip, uri, method, status, bytes_sent } = raw;
  if (
    !isIntIn(timestamp, MS_MIN / 1000, MS_MAX / 1000) ||
    !isString(host, 1, MAX_HOST) ||
    !isClientIp(client_ip) ||
    !isString(uri, 1, MAX_URI) ||
    !isMethod(method) ||
    !isIntIn(status, 100, 599) ||
    !isIntIn(bytes_sent, 0, Number.MAX_SAFE_INTEGER)
  ) return null;
  const out: Out = { timestamp, host, client_ip, uri, method, status, bytes_sent };
  if (
    !optional(raw, out, 'user_agent', UA) ||
    !optional(raw, out, 'referer', REFERER) ||
    !optional(raw, out, 'request_time', isDuration) ||
    !optional(raw, out, 'upstream_time', isDuration)
  ) return null;
  return out as AccessEntryIn;
}

/** Each kind's fast check beside the schema that explains a refusal. */
export const ENTRY_CHECKS = {
  waf: { check: checkWafEvent, schema: WafEventInSchema },
  access: { check: checkAccessEntry, schema: AccessEntryInSchema },
} as const;
