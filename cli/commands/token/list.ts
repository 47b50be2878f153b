// wafctl token list
import type { Command } from 'commander';
import type { TokenListItem } from '../../admin-api.js';
import { withContext, type CommandDeps } from '../../context.js';
import type { Column } from '../../table.js';

const columns: Column<TokenListItem>[] = [
  { header: 'ID', value: (t) => String(t.id), align: 'right' },
  { header: 'NAME', value: (t) => t.name },
  { header: 'CREATED', value: (t) => t.created_at },
  { header: 'LAST USED', value: (t) => t.last_used_at ?? 'never' },
];

export function registerTokenList(token: Command, deps: CommandDeps): void {
  token
    .command('list')
    .description('list ingestion API tokens (never the tokens themselves)')
    .addHelpText('after', '\nExample:\n  wafctl token list --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const tokens = await ctx.admin().listTokens();
        ctx.out.list(tokens, columns, { empty: 'no tokens yet: create one with `wafctl token create NAME`' });
      }),
    );
}
