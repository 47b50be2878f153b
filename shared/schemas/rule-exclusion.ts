// `wafctl rules exclude` on the admin socket (daemon/admin/ROUTES.md): the narrowest exclusion that
// lets one blocked request through, written into the site's "before" file, proved by a replay of
// the stored request. The daemon validates with these; the client parses with them.
import { z } from 'zod';
import { WafRequestIdParamSchema } from './waf-request.js';

/** The event: a WAF event id or a request id (as `wafctl logs show` takes). */
const EventRefSchema = WafRequestIdParamSchema.shape.id;

export const ExcludeEventBodySchema = z.object({
  event: EventRefSchema,
  /** Show the exclusion and the replay verdict; write nothing. */
  dry_run: z.boolean().default(false),
  /** Apply even when the replay still blocks. */
  force: z.boolean().default(false),
}).strict();
export type ExcludeEventBody = z.input<typeof ExcludeEventBodySchema>;

export const RemoveExclusionBodySchema = z.object({ event: EventRefSchema }).strict();

/** One SecRule of the exclusion: a rule kept away from one variable (or, when that cannot be narrowed, the whole rule) on one path. */
export const ExcludedTargetSchema = z.object({
  rule_id: z.string(),
  /** The variable the rule no longer reads, e.g. `ARGS:post_content`; null when the whole rule is removed on the path. */
  target: z.string().nullable(),
  /** The variable the event recorded (what `target` came from). */
  matched_var: z.string().nullable(),
});
export type ExcludedTarget = z.infer<typeof ExcludedTargetSchema>;

export const ExclusionResultSchema = z.object({
  site: z.string(),
  request_id: z.string(),
  /** REQUEST_FILENAME the exclusion is bound to (the path as sent, no query). */
  path: z.string(),
  /** The SecLang text added to the "before" file (comment line first). */
  rule: z.string(),
  excluded: z.array(ExcludedTargetSchema),
  replay: z.object({
    /** The rebuilt request is refused by the site's current rules (else the replay proves little). */
    blocked_before: z.boolean(),
    /** The rebuilt request passes the site's rules with the exclusion. */
    passes: z.boolean(),
    /** Rules that still match the rebuilt request with the exclusion (bookkeeping rules left out). */
    rules_still_matching: z.array(z.string()),
  }),
  applied: z.boolean(),
  warnings: z.array(z.string()),
});
export type ExclusionResult = z.infer<typeof ExclusionResultSchema>;

export const ExclusionRemovedSchema = z.object({
  site: z.string(),
  request_id: z.string(),
  /** The SecLang text taken out of the "before" file. */
  removed: z.string(),
});
export type ExclusionRemoved = z.infer<typeof ExclusionRemovedSchema>;
