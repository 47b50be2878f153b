// Asks the management API who a key belongs to (GET /connect), the way `gh auth login` checks a
// token before saving it: a profile is only ever written once the server, its CA and the key
// have all been shown to work together.
import type { SiteInfo } from '../shared/schemas/management-api.js';
import type { CommandContext } from './context.js';

export interface KeyToCheck {
  server: string;
  key: string;
  /** PEM file of the CA to trust; absent: the system CAs. */
  ca?: string;
}

/** The site the key opens; throws the client's own error (invalid_api_key, tls_error, api_unreachable...). */
export async function checkKey(ctx: CommandContext, candidate: KeyToCheck): Promise<SiteInfo> {
  const client = await ctx.deps.apiClient({ server: candidate.server, key: candidate.key, caFile: candidate.ca });
  return client.get<SiteInfo>('/connect');
}
