import { z } from 'zod';
import { PLAN_TIERS } from '../plans.js';
import { acmeView, AcmeViewSchema, StoredAcmeSchema } from './acme.js';
import { AutoBanSchema } from './bans.js';
import { GeoRulesSchema, IpRulesSchema } from './management-api.js';

// A protected site as the config store holds it, and the view of it the admin socket returns.

export const SITE_STATUSES = ['active', 'inactive', 'deleted'] as const;
export type SiteStatus = (typeof SITE_STATUSES)[number];

export const WAF_MODES = ['on', 'detect', 'off'] as const;
export const BLOCK_RESPONSES = ['403', '404', 'drop'] as const;
export const BOT_CHALLENGES = ['off', 'js'] as const;
/** What the edge does when the engine fails on a request: block it (500 page + event) or let it through. */
export const ENGINE_FAILURE_MODES = ['closed', 'open'] as const;
/** What the edge does with a body over the inspection limit: 413, or forward it uninspected with an event. */
export const BODY_OVER_LIMIT_POLICIES = ['reject', 'pass'] as const;
/** Response inspection (phases 3-5) per site: on by default. */
export const RESPONSE_INSPECTION_STATES = ['on', 'off'] as const;

const Timestamp = z.iso.datetime();
const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hex digest');

// Protection settings (spec section 1, configured from the dashboard = the admin socket).
export const RateLimitRuleSchema = z.object({
  path: z.string().min(1).max(1024),
  per_minute: z.number().int().min(1).max(1_000_000),
});
export const ProtectedPageSchema = z.object({
  path: z.string().min(1).max(1024),
  allow: z.array(z.string()),
});
/** A user SecLang file loaded before or after CRS: its text as validated (see daemon/admin/README.md). */
export const UserRuleFileSchema = z.object({
  /** Absolute path it was read from: its name in file:line messages and the base of relative Includes. */
  path: z.string().min(1).max(4096),
  text: z.string().max(1024 * 1024),
  sha256: Sha256Hex,
  set_at: Timestamp,
});
export type UserRuleFile = z.infer<typeof UserRuleFileSchema>;

export const ProtectionSchema = z.object({
  waf: z.object({
    mode: z.enum(WAF_MODES),
    paranoia: z.number().int().min(1).max(4),
    /** (absent or null: the same as paranoia) Rules up to this level run and log without counting towards the block. */
    detection_paranoia: z.number().int().min(1).max(4).nullable().optional(),
    inbound_threshold: z.number().int().min(1),
    outbound_threshold: z.number().int().min(1),
    groups: z.object({ cms: z.boolean(), crs: z.boolean() }),
    /** (absent: true) With the cms group on, refuse WordPress user enumeration (/?author=N, the REST users endpoint without a login). */
    block_user_enumeration: z.boolean().optional(),
    /** (absent: 'closed') fail-closed blocks with a 500 page and a WAF event; fail-open forwards. */
    on_error: z.enum(ENGINE_FAILURE_MODES).optional(),
    /** (absent: none) User SecLang loaded before CRS (after the engine's base settings). */
    rules_before: UserRuleFileSchema.nullable().optional(),
    /** (absent: none) User SecLang loaded after CRS and the cms group. */
    rules_after: UserRuleFileSchema.nullable().optional(),
  }),
  /** (absent: 'reject') a request body over the inspection limit: 413, or forwarded uninspected with an event. */
  body_over_limit: z.enum(BODY_OVER_LIMIT_POLICIES).optional(),
  /** (absent: 'on') response headers and bodies through the response phases; 'off': they stream untouched. */
  response_inspection: z.enum(RESPONSE_INSPECTION_STATES).optional(),
  block_response: z.enum(BLOCK_RESPONSES),
  rate_limits: z.array(RateLimitRuleSchema),
  protected_pages: z.array(ProtectedPageSchema),
  /** challenge_exempt (absent: none): the site's own paths the JS challenge leaves alone, beside the built-in ones. */
  bot: z.object({ enabled: z.boolean(), challenge: z.enum(BOT_CHALLENGES), challenge_exempt: z.array(z.string()).optional() }),
  /** (absent or null: off) Ban a client that keeps going over the site's rate limits (daemon/bans/README.md). */
  auto_ban: AutoBanSchema.nullable().optional(),
});
export type Protection = z.infer<typeof ProtectionSchema>;

export function defaultProtection(): Protection {
  return {
    waf: { mode: 'on', paranoia: 1, inbound_threshold: 5, outbound_threshold: 4, groups: { cms: true, crs: true } },
    block_response: '403',
    rate_limits: [],
    protected_pages: [],
    bot: { enabled: false, challenge: 'off' },
  };
}

export const StoredSiteSchema = z.object({
  id: z.number().int().positive(),
  account_id: z.number().int().positive(),
  domain: z.string().min(1),
  aliases: z.array(z.string().min(1)),
  origin: z.string().url(),
  plan: z.enum(PLAN_TIERS),
  status: z.enum(SITE_STATUSES),
  /** SHA-256 of the site API key; the clear key is never stored. */
  key_hash: Sha256Hex.nullable(),
  key_created_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  ip_rules: IpRulesSchema,
  /** null until configured: GET /geo-rules answers 404 no_settings. */
  geo_rules: GeoRulesSchema.nullable(),
  protection: ProtectionSchema,
  /** (absent: false) Serves hosts no site claims (nginx's default_server) instead of the 421 page. */
  is_default: z.boolean().optional(),
  /** (absent: null) The site's own edge certificate (PEM); null: the edge's generated one. */
  tls: z.object({ cert: z.string().min(1), key: z.string().min(1) }).nullable().optional(),
  /** (absent: null) Certificates over ACME: while set, `tls` is the last certificate issued (null until the first). */
  acme: StoredAcmeSchema.nullable().optional(),
});
// zod drops keys a schema does not name: a new stored field must be added here, or it is lost on the next write.
export type StoredSite = z.infer<typeof StoredSiteSchema>;

/** What the admin socket shows: never a key or its hash. */
export const SiteSchema = z.object({
  id: z.number().int(),
  domain: z.string(),
  aliases: z.array(z.string()),
  origin: z.string(),
  plan: z.enum(PLAN_TIERS),
  status: z.enum(SITE_STATUSES),
  has_key: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The settings `wafctl site set` changes (absent from daemons older than this field). */
  settings: z.object({
    mode: z.enum(WAF_MODES),
    paranoia: z.number().int(),
    /** The level rules run and log up to (>= paranoia); absent from daemons older than this field. */
    detection_paranoia: z.number().int().optional(),
    inbound_threshold: z.number().int(),
    outbound_threshold: z.number().int(),
    groups: z.object({ cms: z.boolean(), crs: z.boolean() }),
    /** Absent from daemons older than this field. */
    block_user_enumeration: z.boolean().optional(),
    block_response: z.enum(BLOCK_RESPONSES),
    on_engine_error: z.enum(ENGINE_FAILURE_MODES),
    body_over_limit: z.enum(BODY_OVER_LIMIT_POLICIES),
    /** Absent from daemons older than this field. */
    response_inspection: z.enum(RESPONSE_INSPECTION_STATES).optional(),
    is_default: z.boolean(),
    /** 'site': the operator's certificate; 'acme': one issued over ACME; 'generated': the edge's own. */
    tls: z.enum(['site', 'acme', 'generated']),
    /** The ACME certificate's state (present when tls is 'acme'). */
    acme: AcmeViewSchema.optional(),
  }).optional(),
});
export type Site = z.infer<typeof SiteSchema>;

export function siteView(site: StoredSite): Site {
  return {
    id: site.id,
    domain: site.domain,
    aliases: [...site.aliases],
    origin: site.origin,
    plan: site.plan,
    status: site.status,
    has_key: site.key_hash !== null,
    created_at: site.created_at,
    updated_at: site.updated_at,
    settings: {
      mode: site.protection.waf.mode,
      paranoia: site.protection.waf.paranoia,
      detection_paranoia: site.protection.waf.detection_paranoia ?? site.protection.waf.paranoia,
      inbound_threshold: site.protection.waf.inbound_threshold,
      outbound_threshold: site.protection.waf.outbound_threshold,
      groups: { ...site.protection.waf.groups },
      block_user_enumeration: site.protection.waf.block_user_enumeration ?? true,
      block_response: site.protection.block_response,
      on_engine_error: site.protection.waf.on_error ?? 'closed',
      body_over_limit: site.protection.body_over_limit ?? 'reject',
      response_inspection: site.protection.response_inspection ?? 'on',
      is_default: site.is_default ?? false,
      tls: site.acme ? 'acme' : site.tls ? 'site' : 'generated',
      ...(site.acme ? { acme: acmeView(site.acme) } : {}),
    },
  };
}

export { Sha256Hex as Sha256HexSchema, Timestamp as TimestampSchema };
