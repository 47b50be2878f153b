import { z } from 'zod';

// The vulnerability check contract (spec 2.7, vulndb README §3 and §6, DESIGN.md §5): the
// request with its limits, the response (top-level fields, no `data` wrapper), the item shape,
// and the database status shown by `wafctl vulndb status`. The daemon validates with these
// schemas and the CLI parses responses with them.

export const MAX_SLUG_LENGTH = 64;
export const MAX_VERSION_LENGTH = 64;
export const MAX_PLUGINS = 500;
export const MAX_THEMES = 200;

/** README §3.1: trim, then strip one leading `v`/`V` when a digit follows it. */
export function normaliseVersion(raw: string): string {
  const trimmed = raw.trim();
  const c = trimmed.charCodeAt(1);
  if ((trimmed[0] === 'v' || trimmed[0] === 'V') && c >= 48 && c <= 57) return trimmed.slice(1);
  return trimmed;
}

/** README §3.1: trim and lowercase. */
export function normaliseSlug(raw: string): string {
  return raw.trim().toLowerCase();
}

const VersionSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .transform(normaliseVersion)
  .pipe(
    z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(MAX_VERSION_LENGTH, { error: `must be at most ${MAX_VERSION_LENGTH} characters` }),
  );

const SlugSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .transform(normaliseSlug)
  .pipe(
    z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(MAX_SLUG_LENGTH, { error: `must be at most ${MAX_SLUG_LENGTH} characters` }),
  );

export const ComponentRequestSchema = z.object({ slug: SlugSchema, version: VersionSchema }, { error: 'must be an object with slug and version' });

/** The body of POST /api/v1/wp/vulnerabilities/check; parsing yields normalised slugs and versions. */
export const VulnCheckRequestSchema = z.object(
  {
    cms_version: VersionSchema,
    plugins: z
      .array(ComponentRequestSchema, { error: 'must be an array of {slug, version}' })
      .max(MAX_PLUGINS, { error: `at most ${MAX_PLUGINS} plugins per request` })
      .optional()
      .default([]),
    themes: z
      .array(ComponentRequestSchema, { error: 'must be an array of {slug, version}' })
      .max(MAX_THEMES, { error: `at most ${MAX_THEMES} themes per request` })
      .optional()
      .default([]),
  },
  { error: 'the body must be a JSON object' },
);
export type VulnCheckRequest = z.infer<typeof VulnCheckRequestSchema>;
/** What a client sends (before normalisation; plugins and themes optional). */
export type VulnCheckRequestInput = z.input<typeof VulnCheckRequestSchema>;

export const SeveritySchema = z.enum(['critical', 'high', 'medium', 'low', 'none', 'unknown']);

export const VulnItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  severity: SeveritySchema,
  cvss: z.object({ vector: z.string().nullable(), score: z.number(), rating: z.string().nullable() }).nullable(),
  cve: z.string().nullable(),
  cve_link: z.string().nullable(),
  cwe: z.object({ id: z.number().int().nullable(), name: z.string().nullable(), description: z.string().nullable() }).nullable(),
  informational: z.boolean(),
  /** From the matching Software item. */
  patched: z.boolean(),
  patched_versions: z.array(z.string()),
  /** The first patched version above the checked one, or null (DESIGN.md §5). */
  fixed_in: z.string().nullable(),
  remediation: z.string().nullable(),
  /** The record's wordfence.com page: the licence's hyperlink condition. */
  url: z.string(),
  references: z.array(z.string()),
  /** ISO 8601 UTC, or null. */
  published: z.string().nullable(),
  updated: z.string().nullable(),
  /** Passed through from the feed: `{message, defiant: {notice, license, license_url}, mitre?: ...}`. */
  copyrights: z.record(z.string(), z.unknown()),
});
export type VulnItem = z.infer<typeof VulnItemSchema>;

export const ComponentResultSchema = z.object({
  slug: z.string(),
  version: z.string(),
  vulnerabilities: z.array(VulnItemSchema),
});
export type ComponentResult = z.infer<typeof ComponentResultSchema>;

const Count = z.number().int().nonnegative();

export const VulnSummarySchema = z.object({
  total_vulnerabilities: Count,
  critical: Count,
  high: Count,
  medium: Count,
  low: Count,
});

export const AttributionSchema = z.object({
  provider: z.string(),
  provider_url: z.string(),
  license: z.string(),
});

/** The check response: top-level fields, no `data` wrapper (spec 2.1). */
export const VulnCheckResponseSchema = z.object({
  success: z.literal(true),
  checked_at: z.string(),
  cms: z.object({ version: z.string(), vulnerabilities: z.array(VulnItemSchema) }),
  plugins: z.array(ComponentResultSchema),
  themes: z.array(ComponentResultSchema),
  summary: VulnSummarySchema,
  attribution: AttributionSchema,
  /** Present only when no database is loaded: nothing was checked. */
  message: z.string().optional(),
});
export type VulnCheckResponse = z.infer<typeof VulnCheckResponseSchema>;

export const FeedVariantSchema = z.object({
  api: z.enum(['v2', 'v3', 'unknown']),
  feed: z.enum(['production', 'scanner']),
});

/** The optional refresh-from-URL setting, as `vulndb status` shows it (URL without query or credentials). */
export const RefreshStatusSchema = z.object({
  url: z.string(),
  interval_s: Count,
  last_attempt_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
  last_error: z.string().nullable(),
  /** What the last attempt did: imported a new feed, found it unchanged (HTTP 304), or failed. */
  last_result: z.enum(['imported', 'not_modified', 'failed']).nullable(),
  next_at: z.string().nullable(),
});
export type RefreshStatus = z.infer<typeof RefreshStatusSchema>;

/** `wafctl vulndb status --json` / the admin socket's status route. */
export const VulnDbStatusSchema = z.discriminatedUnion('loaded', [
  z.object({
    loaded: z.literal(false),
    /** Why a database on disk could not be loaded (absent when none was ever imported). */
    error: z.string().optional(),
    refresh: RefreshStatusSchema.optional(),
  }),
  z.object({
    loaded: z.literal(true),
    source: z.string(),
    source_kind: z.enum(['file', 'url', 'stream']),
    variant: FeedVariantSchema,
    imported_at: z.string(),
    records: Count,
    skipped: Count,
    duplicates: Count,
    sha256: z.string(),
    bytes: Count,
    duration_ms: Count,
    /** HTTP validators of a URL import (for conditional refresh); older generations lack them. */
    etag: z.string().nullable().optional(),
    last_modified: z.string().nullable().optional(),
    refresh: RefreshStatusSchema.optional(),
  }),
]);
export type VulnDbStatus = z.infer<typeof VulnDbStatusSchema>;

/** What an import answers: the new status plus a sample of the skipped records. */
export const VulnDbImportResultSchema = z.object({
  status: VulnDbStatusSchema,
  skipped_sample: z.array(z.object({ key: z.string(), reason: z.string() })),
});
export type VulnDbImportResult = z.infer<typeof VulnDbImportResultSchema>;
