import { z } from 'zod';
import { Sha256HexSchema, TimestampSchema } from './site.js';

// Accounts own sites and ingestion tokens. This release has exactly one, the default account.

export const AccountSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1).max(100),
  /** Spec 5: an account without API access enabled gets 401 on the ingestion API. */
  api_access: z.boolean(),
  created_at: TimestampSchema,
});
export type Account = z.infer<typeof AccountSchema>;

export const StoredTokenSchema = z.object({
  id: z.number().int().positive(),
  account_id: z.number().int().positive(),
  name: z.string().min(1).max(100),
  /** SHA-256 of the clear token; the token is shown once, at creation. */
  hash: Sha256HexSchema,
  created_at: TimestampSchema,
  last_used_at: TimestampSchema.nullable(),
});
export type StoredToken = z.infer<typeof StoredTokenSchema>;

export const TokenViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type TokenView = z.infer<typeof TokenViewSchema>;

export function tokenView(token: StoredToken): TokenView {
  return { id: token.id, name: token.name, created_at: token.created_at, last_used_at: token.last_used_at };
}

export const AccountViewSchema = z.object({ id: z.number().int(), name: z.string(), api_access: z.boolean() });
export type AccountView = z.infer<typeof AccountViewSchema>;

export function accountView(account: Account): AccountView {
  return { id: account.id, name: account.name, api_access: account.api_access };
}
