import { MAX_EXEMPT_PATHS } from '../challenge-exempt-defaults.js';
import { z } from 'zod';
import { PLAN_TIERS } from '../plans.js';
import { AcmeRequestSchema } from './acme.js';
import { DomainSchema, OriginSchema } from './domain.js';
import { BLOCK_RESPONSES, BOT_CHALLENGES, BODY_OVER_LIMIT_POLICIES, ENGINE_FAILURE_MODES, RESPONSE_INSPECTION_STATES, WAF_MODES } from './site.js';

// Requests and answers of the admin socket's protection routes (daemon/admin/ROUTES.md): site
// settings (`wafctl site set`), rate limits and protected pages (`wafctl protect`), bot protection,
// and the user rule files (`wafctl rules`). The daemon validates with these; the client parses with them.

const MAX_ALIASES = 100;
const MAX_PEM_BYTES = 256 * 1024;
export const MAX_RULE_FILE_BYTES = 1024 * 1024;

/** A request path as configured: what page protection and rate limits match by prefix (normalised by the daemon). */
export const ProtectedPathSchema = z.string()
  .min(1, 'must not be empty')
  .max(1024, 'must be at most 1024 characters')
  .refine((p) => p.startsWith('/'), { message: 'must start with /' })
  .refine((p) => !/[\s\x00-\x1f\x7f]/.test(p), { message: 'must not contain spaces or control characters' })
  .refine((p) => !p.includes('?') && !p.includes('#'), { message: 'must be a path only (no ? query or # fragment: they are not matched)' });

const Pem = z.string().min(1, 'must not be empty').max(MAX_PEM_BYTES, `must be at most ${MAX_PEM_BYTES} bytes`);

export const UpdateSiteBodySchema = z.object({
  origin: OriginSchema.optional(),
  plan: z.enum(PLAN_TIERS).optional(),
  aliases: z.array(DomainSchema).max(MAX_ALIASES, `must have at most ${MAX_ALIASES} entries`).optional(),
  mode: z.enum(WAF_MODES).optional(),
  paranoia: z.number().int('must be a whole number').min(1, 'must be 1-4').max(4, 'must be 1-4').optional(),
  /** null: back to following paranoia. */
  detection_paranoia: z.number().int('must be a whole number').min(1, 'must be 1-4').max(4, 'must be 1-4').nullable().optional(),
  inbound_threshold: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').optional(),
  outbound_threshold: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').optional(),
  groups: z.object({ cms: z.boolean().optional(), crs: z.boolean().optional() }).strict().optional(),
  block_user_enumeration: z.boolean().optional(),
  block_response: z.enum(BLOCK_RESPONSES).optional(),
  on_engine_error: z.enum(ENGINE_FAILURE_MODES).optional(),
  body_over_limit: z.enum(BODY_OVER_LIMIT_POLICIES).optional(),
  response_inspection: z.enum(RESPONSE_INSPECTION_STATES).optional(),
  is_default: z.boolean().optional(),
  /** The site's own certificate chain and key (PEM); null: back to the edge's generated certificate. */
  tls: z.object({ cert: Pem, key: Pem }).strict().nullable().optional(),
  /** Certificates over ACME (HTTP-01 on the edge's port 80): starts an order; `tls` turns it off again. */
  acme: AcmeRequestSchema.optional(),
}).strict()
  .refine((b) => b.acme === undefined || b.tls === undefined, { message: 'acme and tls contradict each other: give one', path: ['acme'] }).refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'must change at least one setting' });
export type UpdateSiteBody = z.input<typeof UpdateSiteBodySchema>;

export const AddRateLimitBodySchema = z.object({
  path: ProtectedPathSchema,
  per_minute: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000'),
}).strict();
export const AddProtectedPageBodySchema = z.object({
  path: ProtectedPathSchema,
  allow: z.array(z.string().min(1).max(64)).min(1, 'must name at least one IP or CIDR').max(500, 'must have at most 500 entries'),
}).strict();
export const PathBodySchema = z.object({ path: ProtectedPathSchema }).strict();
/** challenge_exempt: the whole list of the site's own exempt paths (absent: unchanged). */
export const SetBotBodySchema = z.object({
  enabled: z.boolean(),
  challenge: z.enum(BOT_CHALLENGES).optional(),
  challenge_exempt: z.array(ProtectedPathSchema).max(MAX_EXEMPT_PATHS, `must have at most ${MAX_EXEMPT_PATHS} paths`).optional(),
}).strict();

const RuleFileInput = z.object({
  /** Absolute path of the file the text was read from. */
  path: z.string().min(1).max(4096).refine((p) => p.startsWith('/'), { message: 'must be an absolute path' }),
  text: z.string().max(MAX_RULE_FILE_BYTES, `must be at most ${MAX_RULE_FILE_BYTES} bytes`),
}).strict();
/** Absent: unchanged; null: removed. */
export const SetRulesBodySchema = z.object({
  before: RuleFileInput.nullable().optional(),
  after: RuleFileInput.nullable().optional(),
}).strict().refine((b) => b.before !== undefined || b.after !== undefined, { message: 'must set before or after (null removes one)' });
export type SetRulesBody = z.input<typeof SetRulesBodySchema>;

export const RateLimitViewSchema = z.object({ path: z.string(), per_minute: z.number().int() });
export const ProtectedPageViewSchema = z.object({ path: z.string(), allow: z.array(z.string()) });
export const BotViewSchema = z.object({ enabled: z.boolean(), challenge: z.enum(BOT_CHALLENGES), challenge_exempt: z.array(z.string()).default([]) });
export type RateLimitView = z.infer<typeof RateLimitViewSchema>;
export type ProtectedPageView = z.infer<typeof ProtectedPageViewSchema>;
export type BotView = z.infer<typeof BotViewSchema>;

const RuleFileView = z.object({ path: z.string(), sha256: z.string(), set_at: z.string(), lines: z.number().int() });

/** `wafctl rules show`: what the engine runs for a site, and whether it could load it. */
export const RulesViewSchema = z.object({
  site: z.string(),
  mode: z.enum(WAF_MODES),
  paranoia: z.number().int(),
  inbound_threshold: z.number().int(),
  outbound_threshold: z.number().int(),
  groups: z.object({ cms: z.boolean(), crs: z.boolean() }),
  before: RuleFileView.nullable(),
  after: RuleFileView.nullable(),
  crs: z.object({
    found: z.boolean(), dir: z.string(), rules_dir: z.string().nullable(), setup_file: z.string().nullable(),
    /** The installed release the rules are (null: --crs-dir) and the CRS plugins every site loads; absent from older daemons. */
    version: z.string().nullable().optional(), plugins: z.array(z.string()).optional(),
  }),
  /** Whether this site's rule set compiles; when not, the edge runs the default rules and `error` says why. */
  load: z.object({ ok: z.boolean(), error: z.string().nullable(), rules: z.number().int().nullable() }),
});
export type RulesView = z.infer<typeof RulesViewSchema>;
