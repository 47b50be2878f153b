// wafctl protect rate-limit remove PATH [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';
import { targetSite } from '../target-site.js';
import { rateLimitColumns } from './columns.js';

export function registerRateLimitRemove(group: Command, deps: CommandDeps): void {
  group
    .command('remove')
    .description('remove the rate limit of a path')
    .argument('<path>', 'the path as listed (any spelling with the same normal form)')
    .addHelpText('after', '\nExample:\n  wafctl protect rate-limit remove /wp-login.php --site example.com\n')
    .action(
      withContext(deps, async (ctx, path: string) => {
        const site = await targetSite(ctx);
        const list = await ctx.admin().removeRateLimit(site, path);
        ctx.out.info(`rate limit on ${path} removed from ${site}`);
        ctx.out.list(list, rateLimitColumns, { empty: '' });
      }),
    );
}
