// The shape shared by wafctl site disable|enable|delete DOMAIN: call the admin socket, say what
// happened, show the site. Each verb's own file says what it does.
import type { Command } from 'commander';
import type { AdminApi, SiteView } from '../../admin-api.js';
import { withContext, type CommandDeps } from '../../context.js';
import { siteFields } from './site-view.js';

export interface StateChange {
  verb: 'disable' | 'enable' | 'delete';
  description: string;
  call(admin: AdminApi, domain: string): Promise<SiteView>;
  done: string;
}

export function registerStateChange(site: Command, deps: CommandDeps, change: StateChange): void {
  site
    .command(change.verb)
    .description(change.description)
    .argument('<domain>', 'the site domain')
    .addHelpText('after', `\nExample:\n  wafctl site ${change.verb} example.com\n`)
    .action(
      withContext(deps, async (ctx, domain: string) => {
        const changed = await change.call(ctx.admin(), domain);
        ctx.out.info(`site ${changed.domain} ${change.done}`);
        ctx.out.fields(siteFields(changed), changed);
      }),
    );
}
