// wafctl bans list [--all] [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { targetSite } from '../protect/target-site.js';
import { banColumns } from './columns.js';

export function registerBansList(group: Command, deps: CommandDeps): void {
  group
    .command('list')
    .description("show the site's active bans, newest first")
    .option('--all', 'also the bans that expired or were lifted in the last week')
    .addHelpText('after', '\nExamples:\n  wafctl bans list --site example.com\n  wafctl bans list --all --json --site example.com\n')
    .action(
      withContext(deps, async (ctx, options: { all?: boolean }) => {
        const site = await targetSite(ctx);
        const list = await ctx.admin().listBans(site, options.all === true);
        ctx.out.list(list, banColumns, { empty: `no ${options.all ? '' : 'active '}bans on ${site}` });
      }),
    );
}
