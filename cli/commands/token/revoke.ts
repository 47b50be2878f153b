// wafctl token revoke ID: the token stops working at once.
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { parsePositiveInt } from '../../options.js';

export function registerTokenRevoke(token: Command, deps: CommandDeps): void {
  token
    .command('revoke')
    .description('revoke an ingestion API token; it stops working at once')
    .argument('<id>', 'the token id (see `wafctl token list`)', parsePositiveInt)
    .addHelpText('after', '\nExample:\n  wafctl token revoke 3\n')
    .action(
      withContext(deps, async (ctx, id: number) => {
        const revoked = await ctx.admin().revokeToken(id);
        ctx.out.info(`token ${revoked.id} revoked`);
        ctx.out.data(revoked, () => '');
      }),
    );
}
