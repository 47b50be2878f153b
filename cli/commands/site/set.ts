// wafctl site set DOMAIN [--origin URL] [--plan PLAN] [--alias D]... [--clear-aliases]
import { Option, type Command } from 'commander';
import { PLAN_TIERS } from '../../../shared/plans.js';
import type { SiteChanges } from '../../admin-api.js';
import { usageError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';
import { collect } from '../../options.js';
import { siteFields } from './site-view.js';

interface SetOptions {
  origin?: string;
  plan?: string;
  alias: string[];
  clearAliases?: boolean;
}

/** The change a `site set` command line asks for; a usage error when it asks for nothing or contradicts itself. */
export function siteChanges(options: SetOptions): SiteChanges {
  if (options.clearAliases && options.alias.length > 0) throw usageError('--alias and --clear-aliases contradict each other');
  const changes: SiteChanges = {};
  if (options.origin !== undefined) changes.origin = options.origin;
  if (options.plan !== undefined) changes.plan = options.plan;
  if (options.alias.length > 0) changes.aliases = options.alias;
  if (options.clearAliases) changes.aliases = [];
  if (Object.keys(changes).length === 0) throw usageError('nothing to change', 'give --origin, --plan, --alias or --clear-aliases');
  return changes;
}

export function registerSiteSet(site: Command, deps: CommandDeps): void {
  site
    .command('set')
    .description("change a site's origin, plan or aliases")
    .argument('<domain>', 'the site domain')
    .option('--origin <url>', 'new origin: http(s)://host[:port]')
    .addOption(new Option('--plan <plan>', 'new plan tier').choices(PLAN_TIERS))
    .option('--alias <domain>', 'replace the aliases with these (repeatable)', collect, [])
    .option('--clear-aliases', 'remove every alias')
    .addHelpText('after', '\nExamples:\n  wafctl site set example.com --plan enterprise\n  wafctl site set example.com --alias www.example.com --alias shop.example.com\n')
    .action(
      withContext(deps, async (ctx, domain: string, options: SetOptions) => {
        const updated = await ctx.admin().updateSite(domain, siteChanges(options));
        ctx.out.info(`site ${updated.domain} updated`);
        ctx.out.fields(siteFields(updated), updated);
      }),
    );
}
