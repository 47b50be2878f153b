import { z } from 'zod';
import { parseIpRange } from '../../shared/schemas/ip.js';

// The plain object the control plane hands to buildEdgeSnapshot(): everything the data plane
// needs about every site, and nothing else. camelCase, JSON-serialisable (so it can be sent
// to cluster workers as is). Documented in README.md next to this file.

// The API's parser (shared/schemas/ip.ts): an entry the API would refuse is refused here with the
// same reason, and the build isolates that site (snapshot.ts).
const IpEntry = z.string().superRefine((v, ctx) => {
  const parsed = parseIpRange(v);
  if (!parsed.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${JSON.stringify(v.slice(0, 80))} ${parsed.reason}` });
});
const RequestPath = z.string().min(1).max(2048).refine((p) => p.startsWith('/'), { message: 'must start with /' });
const UserRules = z.object({ name: z.string().min(1), text: z.string() });
const Hostname = z.string().min(1).max(253).regex(/^[A-Za-z0-9.-]+$/, 'must be a host name (letters, digits, dots, hyphens)');

export const SiteInputSchema = z.object({
  id: z.number().int().nonnegative(),
  domain: Hostname,
  aliases: z.array(Hostname).default([]),
  /** http(s)://host[:port][/base] — the base path, if any, is prefixed to every forwarded path. */
  origin: z.string().url().refine((u) => /^https?:$/.test(new URL(u).protocol), { message: 'must be http: or https:' }),
  status: z.enum(['active', 'inactive', 'deleted']).default('active'),
  /** Serves hosts no site claims (nginx's default_server); at most one site. */
  isDefault: z.boolean().default(false),
  ipWhitelist: z.array(IpEntry).default([]),
  ipBlacklist: z.array(IpEntry).default([]),
  geo: z.object({
    enabled: z.boolean(),
    mode: z.enum(['whitelist', 'blacklist']),
    countries: z.array(z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')),
  }).nullable().default(null),
  pageProtection: z.array(z.object({ path: RequestPath, allow: z.array(IpEntry) })).default([]),
  rateLimits: z.array(z.object({ path: RequestPath, perMinute: z.number().int().positive() })).default([]),
  bot: z.object({
    enabled: z.boolean(),
    challenge: z.enum(['js', 'off']).default('off'),
    /** Also block clients that isbot recognises as automated (curl, python-requests, ...), not only scanners. */
    blockAutomated: z.boolean().default(false),
    /** The site's own paths the JS challenge leaves alone, beside the built-in ones (challenge-exemptions.ts). */
    challengeExempt: z.array(RequestPath).default([]),
  }).default({ enabled: false, challenge: 'off', blockAutomated: false, challengeExempt: [] }),
  blockResponse: z.union([z.literal(403), z.literal(404), z.literal('drop')]).default(403),
  waf: z.object({
    mode: z.enum(['on', 'detect', 'off']).default('on'),
    paranoia: z.number().int().min(1).max(4).default(1),
    /** Rules up to this level run and log without blocking (>= paranoia); null: the same as paranoia. */
    detectionParanoia: z.number().int().min(1).max(4).nullable().default(null),
    /** When the engine fails on a request: 'closed' blocks it (500 page + WAF event), 'open' forwards it. */
    onError: z.enum(['closed', 'open']).default('closed'),
    /** CRS anomaly score thresholds (tx.inbound/outbound_anomaly_score_threshold). */
    inboundThreshold: z.number().int().min(1).default(5),
    outboundThreshold: z.number().int().min(1).default(4),
    /** Rule groups: a group that is off is not loaded. */
    groups: z.object({ cms: z.boolean(), crs: z.boolean() }).default({ cms: true, crs: true }),
    /** With the cms group on: refuse WordPress user enumeration (rules 200110-200112). */
    blockUserEnumeration: z.boolean().default(true),
    /** User SecLang loaded before CRS (after crs-setup) and after CRS and cms; name: the file's absolute path. */
    rulesBefore: UserRules.nullable().default(null),
    rulesAfter: UserRules.nullable().default(null),
  }).default({ mode: 'on', paranoia: 1, detectionParanoia: null, onError: 'closed', inboundThreshold: 5, outboundThreshold: 4, groups: { cms: true, crs: true }, blockUserEnumeration: true, rulesBefore: null, rulesAfter: null }),
  /** A body over the inspection limit: 'reject' answers 413, 'pass' forwards it uninspected with an event. */
  bodyOverLimit: z.enum(['reject', 'pass']).default('reject'),
  /** Response phases 3-5 (headers, bodies of the engine's MIME types up to its limit, logging); off: responses stream untouched. */
  responseInspection: z.boolean().default(true),
  /** Per-minute limits of the rule counters (Verdict.counters) per client IP; wp_login feeds on cms rules 200103/200140. */
  ruleCounters: z.record(z.string().regex(/^[a-z0-9_]+$/, 'counter names are lower-case letters, digits and _'), z.number().int().positive())
    .default({ wp_login: 10 }),
  /** PEM certificate chain and key for HTTPS (SNI on domain and aliases). */
  tls: z.object({ cert: z.string().min(1), key: z.string().min(1) }).nullable().default(null),
  /** Open ACME HTTP-01 challenges: token -> key authorization, answered at /.well-known/acme-challenge/TOKEN. */
  acmeChallenges: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url'), z.string().min(1)).default({}),
});

export const EdgeConfigInputSchema = z.object({
  sites: z.array(SiteInputSchema),
});

export type SiteInput = z.input<typeof SiteInputSchema>;
export type EdgeConfigInput = z.input<typeof EdgeConfigInputSchema>;
export type SiteConfig = z.output<typeof SiteInputSchema>;
