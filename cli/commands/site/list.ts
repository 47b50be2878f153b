// wafctl site list [--all]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { siteColumns } from './site-view.js';

export function registerSiteList(site: Command, deps: CommandDeps): void {
  site
    .command('list')
    .description('list sites (deleted ones only with --all)')
    .option('--all', 'include deleted sites')
    .addHelpText('after', '\nExample:\n  wafctl site list --json\n')
    .action(
      withContext(deps, async (ctx, options: { all?: boolean }) => {
        const sites = await ctx.admin().listSites({ all: Boolean(options.all) });
        ctx.out.list(sites, siteColumns, { empty: 'no sites yet: add one with `wafctl site add DOMAIN --origin URL`' });
      }),
    );
}
