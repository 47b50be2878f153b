// wafctl protect page list [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';
import { targetSite } from '../target-site.js';
import { pageColumns } from './columns.js';

export function registerPageList(group: Command, deps: CommandDeps): void {
  group
    .command('list')
    .description("show the site's protected pages and who may reach them")
    .addHelpText('after', '\nExample:\n  wafctl protect page list --site example.com\n')
    .action(
      withContext(deps, async (ctx) => {
        const site = await targetSite(ctx);
        const list = await ctx.admin().listProtectedPages(site);
        ctx.out.list(list, pageColumns, { empty: `no protected pages on ${site}: add one with \`wafctl protect page add PATH --allow IP\`` });
      }),
    );
}
