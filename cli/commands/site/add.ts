// wafctl site add DOMAIN --origin URL: creates the site and its API key (shown once).
import { Option, type Command } from 'commander';
import { PLAN_TIERS } from '../../../shared/plans.js';
import { withContext, type CommandDeps } from '../../context.js';
import { collect } from '../../options.js';
import { saveKeyAsLogin } from './save-login.js';
import { siteFields } from './site-view.js';

interface AddOptions {
  origin: string;
  alias: string[];
  plan?: string;
  login: boolean;
}

export function registerSiteAdd(site: Command, deps: CommandDeps): void {
  site
    .command('add')
    .description('add a site and generate its API key (shown once)')
    .argument('<domain>', 'the site domain, e.g. example.com')
    .requiredOption('--origin <url>', 'where the edge forwards traffic: http(s)://host[:port]')
    .option('--alias <domain>', 'another host name of the site (repeatable)', collect, [])
    .addOption(new Option('--plan <plan>', 'plan tier').choices(PLAN_TIERS).default(undefined, 'free'))
    .option('--no-login', 'do not save the key as the login profile for this site')
    .addHelpText('after', '\nExamples:\n  wafctl site add example.com --origin http://127.0.0.1:8081\n  wafctl site add example.com --origin https://10.0.0.5 --alias www.example.com --plan advanced --json\n')
    .action(
      withContext(deps, async (ctx, domain: string, options: AddOptions) => {
        const created = await ctx.admin().addSite({
          domain,
          origin: options.origin,
          aliases: options.alias,
          ...(options.plan ? { plan: options.plan } : {}),
        });
        const { site: added, api_key } = created;
        ctx.out.info(`site ${added.domain} added; its API key is shown only this once`);
        ctx.out.fields([...siteFields(added).filter(([label]) => label !== 'api key'), ['api_key', api_key]], { site_id: added.id, domain: added.domain, api_key });
        if (options.login) await saveKeyAsLogin(ctx, added.domain, api_key);
      }),
    );
}
