import { z } from 'zod';

// Certificates over ACME (`wafctl site set D --tls acme`): what a site stores about its
// ACME certificate, what `site set` sends, and what `site show` and `daemon status` show.
// The issued certificate and key themselves are the site's `tls` pair (config.json, 0600), the
// same place an operator's own certificate lives, so the edge serves both the same way.

export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';
export const ACME_STATES = ['pending', 'valid', 'failed'] as const;
export type AcmeState = (typeof ACME_STATES)[number];

const HttpsUrl = z.string().max(2048, 'must be at most 2048 characters').url('must be a URL')
  .refine((u) => u.startsWith('https://'), { message: 'must be an https:// URL (ACME directories are served over TLS)' });
const Email = z.string().max(254, 'must be at most 254 characters').email('must be an email address');

/** `site set --tls acme [--acme-email E] [--acme-directory URL]` as the PATCH body's `acme` field. */
export const AcmeRequestSchema = z.object({
  /** Absent: Let's Encrypt's production directory. */
  directory: HttpsUrl.optional(),
  /** Absent: an account without a contact address. */
  email: Email.nullable().optional(),
}).strict();

/** An HTTP-01 challenge the edge answers while an order is open: GET /.well-known/acme-challenge/TOKEN. */
export const AcmeChallengeSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be base64url'),
  key_authorization: z.string().min(1).max(1024),
});

export const StoredAcmeSchema = z.object({
  directory: z.string(),
  email: z.string().nullable(),
  state: z.enum(ACME_STATES),
  /** Expiry of the certificate the site serves now (null until one is issued). */
  not_after: z.iso.datetime().nullable(),
  serial: z.string().nullable(),
  /** Why the last order failed (state 'failed'); the site keeps serving the certificate it had. */
  error: z.string().nullable(),
  /** When the state last changed. */
  changed_at: z.iso.datetime(),
  challenges: z.array(AcmeChallengeSchema),
});
export type StoredAcme = z.infer<typeof StoredAcmeSchema>;

/** What `site show` and `daemon status` show about a site's ACME certificate. */
export const AcmeViewSchema = z.object({
  directory: z.string(),
  email: z.string().nullable(),
  state: z.enum(ACME_STATES),
  not_after: z.string().nullable(),
  serial: z.string().nullable(),
  error: z.string().nullable(),
  changed_at: z.string(),
});
export type AcmeView = z.infer<typeof AcmeViewSchema>;

export function acmeView(acme: StoredAcme): AcmeView {
  return {
    directory: acme.directory, email: acme.email, state: acme.state, not_after: acme.not_after,
    serial: acme.serial, error: acme.error, changed_at: acme.changed_at,
  };
}
