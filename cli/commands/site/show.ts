// wafctl site show DOMAIN
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { siteFields } from './site-view.js';

export function registerSiteShow(site: Command, deps: CommandDeps): void {
  site
    .command('show')
    .description('show one site')
    .argument('<domain>', 'the site domain')
    .addHelpText('after', '\nExample:\n  wafctl site show example.com\n')
    .action(
      withContext(deps, async (ctx, domain: string) => {
        const found = await ctx.admin().getSite(domain);
        ctx.out.fields(siteFields(found), found);
      }),
    );
}
