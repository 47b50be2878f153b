import { z } from 'zod';
import { isAssignedCountryCode } from '../countries.js';
import { FEATURE_KEYS, PLAN_TIERS } from '../plans.js';
import {
  AnalyticsPeriodSchema,
  AnalyticsSchema,
  PaginationSchema,
  PERIOD_HOURS,
  WafLogEntrySchema,
  type Analytics,
  type AnalyticsPeriod,
  type WafLogEntry,
} from './events.js';
import { IpOrCidrSchema } from './ip.js';
import { TOP_KINDS, TOP_LIMIT_MAX, TopListSchema } from './top-lists.js';

// The management API's shapes (spec sections 2.1-2.6 and 4): the daemon validates requests and the
// client parses responses with these same schemas.

export const ErrorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  message: z.string(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export function successEnvelope<T extends z.ZodTypeAny>(data: T) {
  return z.object({ success: z.literal(true), data, message: z.string().optional() });
}

export const MessageEnvelopeSchema = z.object({ success: z.literal(true), message: z.string() });

// 2.2
export const SiteInfoSchema = z.object({
  connected: z.literal(true),
  site_id: z.number().int(),
  domain: z.string(),
  plan_tier: z.enum(PLAN_TIERS),
  /** plan_tier again, under the name the Atomic Edge WordPress plugin's dashboard reads. */
  plan: z.enum(PLAN_TIERS),
  waf_enabled: z.boolean(),
  features: z.object(Object.fromEntries(FEATURE_KEYS.map((k) => [k, z.boolean()])) as Record<(typeof FEATURE_KEYS)[number], z.ZodBoolean>),
});
export type SiteInfo = z.infer<typeof SiteInfoSchema>;

// 2.3 and 2.4: the read shapes are the event store's own (shared/schemas/events.ts), one definition.
export const ANALYTICS_PERIODS = AnalyticsPeriodSchema.options;
export { AnalyticsSchema, PaginationSchema, PERIOD_HOURS, WafLogEntrySchema };
export type { Analytics, AnalyticsPeriod, WafLogEntry };

/**
 * `top` and `limit` are not in the spec (silent on extra parameters): with `top`, `data` also has
 * `top`, a top list of the period (shared/schemas/top-lists.ts); without it the answer is spec 2.3.
 * Without `top`, `limit` is ignored like any other parameter the spec does not name, so a
 * client that sent one before top lists existed gets the answer it always got.
 */
export const AnalyticsQuerySchema = z.preprocess(
  (query) => {
    if (typeof query !== 'object' || query === null || 'top' in query) return query;
    const { limit: _ignored, ...rest } = query as Record<string, unknown>;
    return rest;
  },
  z.object({
    period: z.enum(ANALYTICS_PERIODS, { message: `must be one of ${ANALYTICS_PERIODS.join(', ')}` }).default('24h'),
    top: z.enum(TOP_KINDS, { message: `must be one of ${TOP_KINDS.join(', ')}` }).optional(),
    limit: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, `must be between 1 and ${TOP_LIMIT_MAX}`).max(TOP_LIMIT_MAX, `must be between 1 and ${TOP_LIMIT_MAX}`).optional(),
  }),
);
export type AnalyticsParams = z.infer<typeof AnalyticsQuerySchema>;

/** GET /analytics `data` when asked with `top`: spec 2.3 plus the top list. */
export const AnalyticsWithTopSchema = AnalyticsSchema.extend({ top: TopListSchema });
export type AnalyticsWithTop = z.infer<typeof AnalyticsWithTopSchema>;

const positiveIntFromQuery = z.coerce.number().int();

export const WafLogsQuerySchema = z.object({
  page: positiveIntFromQuery.min(1, 'must be 1 or more').default(1),
  per_page: positiveIntFromQuery.min(10, 'must be between 10 and 100').max(100, 'must be between 10 and 100').default(50),
  search: z.string().trim().max(256).optional(),
  /** `action`: add each row's action (not in the spec, which is silent on extra parameters; rows stay spec 2.4 without it). */
  include: z.enum(['action'], { message: 'must be "action" (the only extra row field)' }).optional(),
});
export type WafLogsQuery = z.infer<typeof WafLogsQuerySchema>;

export const WafLogsSchema = z.object({ logs: z.array(WafLogEntrySchema), pagination: PaginationSchema });
export type WafLogs = z.infer<typeof WafLogsSchema>;

// 2.5
export const IP_LIST_TYPES = ['whitelist', 'blacklist'] as const;
export type IpListType = (typeof IP_LIST_TYPES)[number];

export const IpRuleSchema = z.object({ ip: z.string(), description: z.string(), added_at: z.string() });
export type IpRule = z.infer<typeof IpRuleSchema>;
export const IpRulesSchema = z.object({ whitelist: z.array(IpRuleSchema), blacklist: z.array(IpRuleSchema) });
export type IpRules = z.infer<typeof IpRulesSchema>;

export const AddIpRuleBodySchema = z.object({
  ip: IpOrCidrSchema,
  description: z.string().max(100, 'must be at most 100 characters').default(''),
});
export const DeleteIpRuleBodySchema = z.object({
  // Any text: an entry is found by its canonical form, or (one the parser refuses, from a hand
  // edit of config.json) by its exact text; not in the list is 404.
  ip: z.string().trim().min(1, 'must name the IP or CIDR to remove').max(256),
  type: z.enum(IP_LIST_TYPES),
});

// 2.6
export const GEO_MODES = ['whitelist', 'blacklist'] as const;
const CountryCodeSchema = z.string().refine(isAssignedCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code' });

export const GeoRulesSchema = z.object({
  enabled: z.boolean(),
  mode: z.enum(GEO_MODES),
  countries: z.array(z.string()),
});
export type GeoRules = z.infer<typeof GeoRulesSchema>;

export const PutGeoRulesBodySchema = z
  .object({
    enabled: z.boolean(),
    mode: z.enum(GEO_MODES).optional(),
    countries: z.array(CountryCodeSchema).max(1000).optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.enabled) return;
    if (body.mode === undefined) ctx.addIssue({ code: 'custom', path: ['mode'], message: 'is required when enabled is true' });
    if (body.countries === undefined) ctx.addIssue({ code: 'custom', path: ['countries'], message: 'is required when enabled is true' });
  });
export type PutGeoRulesBody = z.infer<typeof PutGeoRulesBodySchema>;

/** Upper-cased and de-duplicated, in first-seen order. */
export function normaliseCountries(countries: readonly string[]): string[] {
  return [...new Set(countries.map((c) => c.toUpperCase()))];
}
