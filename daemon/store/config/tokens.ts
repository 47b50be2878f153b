import { WafctlError } from '../../../shared/errors.js';
import type { Account, StoredToken } from '../../../shared/schemas/account.js';
import type { Config } from '../../../shared/schemas/config.js';
import type { ConfigSnapshot } from './config-store.js';
import { generateIngestToken, isIngestTokenFormat, secretMatchesHash, sha256Hex } from './secrets.js';

// The default account and its ingestion tokens (operations on a config draft, like sites.ts).
// Revoking deletes the token record, hash included: nothing is left that could match again.

export function defaultAccount(config: Readonly<Config>): Account {
  return config.accounts[0];
}

export function setApiAccess(config: Config, enabled: boolean): Account {
  const account = config.accounts[0];
  account.api_access = enabled;
  return account;
}

export function createToken(config: Config, name: string, now: string): { token: StoredToken; clear: string } {
  const clear = generateIngestToken();
  const token: StoredToken = {
    id: config.next_ids.token,
    account_id: config.accounts[0].id,
    name,
    hash: sha256Hex(clear),
    created_at: now,
    last_used_at: null,
  };
  config.next_ids.token += 1;
  config.tokens.push(token);
  return { token, clear };
}

export function revokeToken(config: Config, id: number): void {
  const index = config.tokens.findIndex((t) => t.id === id);
  if (index < 0) throw new WafctlError('not_found', `no token with id ${id}`);
  config.tokens.splice(index, 1);
}

export function touchToken(config: Config, id: number, now: string): void {
  const token = config.tokens.find((t) => t.id === id);
  if (token) token.last_used_at = now;
}

export type TokenLookup =
  | { ok: true; token: StoredToken; account: Account }
  | { ok: false; reason: 'invalid_token' | 'api_access_disabled' };

/** Ingestion authentication (spec 5): format, then hash match in constant time, then the account's api_access. */
export function tokenForBearer(snapshot: ConfigSnapshot, clear: string): TokenLookup {
  if (!isIngestTokenFormat(clear)) return { ok: false, reason: 'invalid_token' };
  const hash = sha256Hex(clear);
  const token = snapshot.tokens.find((t) => t.hash === hash);
  if (!token || !secretMatchesHash(clear, token.hash)) return { ok: false, reason: 'invalid_token' };
  const account = snapshot.accounts.find((a) => a.id === token.account_id);
  if (!account || !account.api_access) return { ok: false, reason: 'api_access_disabled' };
  return { ok: true, token, account };
}
