import { z } from 'zod';
import { AccountSchema, StoredTokenSchema } from './account.js';
import { StoredSiteSchema } from './site.js';

// The whole of <data>/config.json. Bump CONFIG_SCHEMA_VERSION together with a migration in
// daemon/store/config/migrations.ts whenever a stored shape changes incompatibly.

export const CONFIG_SCHEMA_VERSION = 1;

export const ConfigSchema = z
  .object({
    schema_version: z.literal(CONFIG_SCHEMA_VERSION),
    next_ids: z.object({
      account: z.number().int().positive(),
      site: z.number().int().positive(),
      token: z.number().int().positive(),
    }),
    accounts: z.array(AccountSchema).min(1, 'must hold the default account'),
    sites: z.array(StoredSiteSchema),
    tokens: z.array(StoredTokenSchema),
  })
  .superRefine((config, ctx) => {
    const accountIds = new Set(config.accounts.map((a) => a.id));
    const seen = new Map<string, number>();
    config.sites.forEach((site, index) => {
      if (!accountIds.has(site.account_id)) ctx.addIssue({ code: 'custom', path: ['sites', index, 'account_id'], message: 'names no account' });
      if (site.id >= config.next_ids.site) ctx.addIssue({ code: 'custom', path: ['sites', index, 'id'], message: 'is not below next_ids.site' });
      if (site.status === 'deleted') return;
      for (const host of [site.domain, ...site.aliases]) {
        const other = seen.get(host);
        if (other !== undefined) ctx.addIssue({ code: 'custom', path: ['sites', index], message: `host ${host} is also used by site ${other}` });
        seen.set(host, site.id);
      }
    });
    config.tokens.forEach((token, index) => {
      if (!accountIds.has(token.account_id)) ctx.addIssue({ code: 'custom', path: ['tokens', index, 'account_id'], message: 'names no account' });
      if (token.id >= config.next_ids.token) ctx.addIssue({ code: 'custom', path: ['tokens', index, 'id'], message: 'is not below next_ids.token' });
    });
  });
export type Config = z.infer<typeof ConfigSchema>;

export const DEFAULT_ACCOUNT_NAME = 'default';

export function emptyConfig(now: string): Config {
  return {
    schema_version: CONFIG_SCHEMA_VERSION,
    next_ids: { account: 2, site: 1, token: 1 },
    accounts: [{ id: 1, name: DEFAULT_ACCOUNT_NAME, api_access: true, created_at: now }],
    sites: [],
    tokens: [],
  };
}
