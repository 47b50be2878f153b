import { z } from 'zod';
import { parseIpRange } from './ip.js';

// Bans: a client address (or range) refused by a site's edge until a set time. Automatic bans
// come from the site's auto-ban setting (a client that keeps going over its rate limits); manual
// ones from `wafctl bans add`. Unlike the blacklist (config, for good), a ban ends by itself.
// daemon/bans/README.md says how they are kept and shared between nodes.

const Timestamp = z.iso.datetime();

/** The site setting (protection.auto_ban): `strikes` windows over a rate limit within `window_minutes` ban for `ban_minutes`. */
export const AutoBanSchema = z.object({
  /** Rate-limit windows a client went over (one strike per limit and minute) that make a ban. */
  strikes: z.number().int().min(1).max(100),
  /** The fixed window (aligned to the clock, like the rate limits') strikes are counted in. */
  window_minutes: z.number().int().min(1).max(1_440),
  ban_minutes: z.number().int().min(1).max(525_600),
});
export type AutoBan = z.infer<typeof AutoBanSchema>;

export const BAN_SOURCES = ['auto', 'manual'] as const;

/**
 * The canonical text of a ban's address or range (shared/schemas/ip.ts), a single address written
 * without its /32 or /128, so that any spelling of an address names the same ban; or the reason
 * it is refused.
 */
export function banTarget(text: string): { ok: true; ip: string } | { ok: false; reason: string } {
  const parsed = parseIpRange(text);
  if (!parsed.ok) return parsed;
  const r = parsed.range;
  const whole = (r.v === 4 && r.bits === 32) || (r.v === 6 && r.bits === 128);
  return { ok: true, ip: whole ? r.text.replace(/\/\d+$/, '') : r.text };
}

export const BanSchema = z.object({
  id: z.string().min(1),
  site_id: z.number().int().positive(),
  /** Canonical address or CIDR range (banTarget): a record from a file or another node is checked too. */
  ip: z.string().refine((ip) => { const t = banTarget(ip); return t.ok && t.ip === ip; }, 'must be a canonical address or CIDR range'),
  reason: z.string(),
  source: z.enum(BAN_SOURCES),
  /** The node (host name) that set it. */
  node: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
  /** Set when lifted before it expired (`wafctl bans remove`). */
  revoked_at: Timestamp.nullable(),
});
export type Ban = z.infer<typeof BanSchema>;

/** A ban as `wafctl bans list` shows it: the record and whether it still holds. */
export const BanViewSchema = BanSchema.extend({ state: z.enum(['active', 'expired', 'revoked']) });
export type BanView = z.infer<typeof BanViewSchema>;

const IpText = z.string().transform((text, ctx) => {
  const target = banTarget(text);
  if (!target.ok) {
    ctx.addIssue({ code: 'custom', message: target.reason });
    return z.NEVER;
  }
  return target.ip;
});

/** POST /admin/sites/:domain/bans */
export const AddBanBodySchema = z.object({
  ip: IpText,
  /** How long (default one hour, at most a year). */
  minutes: z.number().int().min(1).max(525_600).default(60),
  reason: z.string().max(200).default(''),
});
export type AddBanBody = z.input<typeof AddBanBodySchema>;

/** DELETE /admin/sites/:domain/bans: lifts every active ban of exactly this address or range. */
export const RemoveBanBodySchema = z.object({ ip: IpText });

/** GET /admin/sites/:domain/bans?all=1: also bans that ended (kept a week). */
export const ListBansQuerySchema = z.object({ all: z.enum(['0', '1', 'true', 'false']).optional() });
