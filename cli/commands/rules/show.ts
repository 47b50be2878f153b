// wafctl rules show [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { targetSite } from '../protect/target-site.js';
import { rulesFields } from './rules-view.js';
import { warnWithoutCrs } from '../daemon/crs-line.js';

export function registerRulesShow(rules: Command, deps: CommandDeps): void {
  rules
    .command('show')
    .description("show the site's mode, paranoia, thresholds, groups, user files, where CRS is, and whether it all loads")
    .addHelpText('after', '\nExample:\n  wafctl rules show --site example.com\n')
    .action(
      withContext(deps, async (ctx) => {
        const view = await ctx.admin().getRules(await targetSite(ctx));
        ctx.out.fields(rulesFields(view), view);
        if (!view.load.ok && !ctx.out.json) ctx.out.warn(`the rule set of ${view.site} does not load: ${view.load.error}`);
        if (view.groups.crs) warnWithoutCrs(ctx, view.crs);
      }),
    );
}
