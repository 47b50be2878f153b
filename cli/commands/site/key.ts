// wafctl site key DOMAIN [--regenerate]: generate the site's API key, or replace it. The daemon
// keeps only a hash, so an existing key can never be shown again: replacing it needs --regenerate.
import type { Command } from 'commander';
import { CliError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';
import { saveKeyAsLogin } from './save-login.js';

export function registerSiteKey(site: Command, deps: CommandDeps): void {
  site
    .command('key')
    .description('generate the API key of a site, or replace it with --regenerate (shown once)')
    .argument('<domain>', 'the site domain')
    .option('--regenerate', 'replace the existing key; the old one stops working at once')
    .option('--no-login', 'do not save the key as the login profile for this site')
    .addHelpText('after', '\nExamples:\n  wafctl site key example.com\n  wafctl site key example.com --regenerate --json\n')
    .action(
      withContext(deps, async (ctx, domain: string, options: { regenerate?: boolean; login: boolean }) => {
        const admin = ctx.admin();
        const current = await admin.getSite(domain);
        if (current.has_key && !options.regenerate) {
          throw new CliError('key_exists', `${current.domain} already has an API key, and only its hash is kept, so it cannot be shown again`, {
            hint: `replace it with \`wafctl site key ${current.domain} --regenerate\` (the old key stops working at once)`,
          });
        }
        const { api_key } = await admin.newSiteKey(current.domain);
        ctx.out.info(`new API key for ${current.domain}; it is shown only this once${current.has_key ? ', and the old key no longer works' : ''}`);
        ctx.out.fields([['api_key', api_key]], { api_key });
        if (options.login) await saveKeyAsLogin(ctx, current.domain, api_key);
      }),
    );
}
