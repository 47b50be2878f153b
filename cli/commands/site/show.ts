// wafctl site show DOMAIN
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { siteFields } from './site-view.js';
import { warnWithoutCrs } from '../daemon/crs-line.js';

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
        // "crs on" is the site's setting; whether a rule set runs is the daemon's.
        if (found.settings?.groups.crs) warnWithoutCrs(ctx, (await ctx.admin().status()).crs);
      }),
    );
}
