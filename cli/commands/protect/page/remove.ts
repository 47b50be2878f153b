// wafctl protect page remove PATH [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';
import { targetSite } from '../target-site.js';
import { pageColumns } from './columns.js';

export function registerPageRemove(group: Command, deps: CommandDeps): void {
  group
    .command('remove')
    .description('stop protecting a path')
    .argument('<path>', 'the path as listed (any spelling with the same normal form)')
    .addHelpText('after', '\nExample:\n  wafctl protect page remove /wp-admin --site example.com\n')
    .action(
      withContext(deps, async (ctx, path: string) => {
        const site = await targetSite(ctx);
        const list = await ctx.admin().removeProtectedPage(site, path);
        ctx.out.info(`${path} on ${site} is no longer protected`);
        ctx.out.list(list, pageColumns, { empty: '' });
      }),
    );
}
