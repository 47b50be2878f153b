// wafctl connect: checks the API key and shows the site it belongs to (GET /connect).
import type { Command } from 'commander';
import type { SiteInfo } from '../../shared/schemas/management-api.js';
import { withContext, type CommandDeps } from '../context.js';

export function registerConnect(program: Command, deps: CommandDeps): void {
  program
    .command('connect')
    .description('test the API key and show the site it belongs to (management API)')
    .addHelpText('after', '\nExample:\n  wafctl connect --site example.com\n')
    .action(
      withContext(deps, async (ctx) => {
        const info = await (await ctx.api()).get<SiteInfo>('/connect');
        const features = Object.entries(info.features)
          .map(([name, on]) => (on ? name : `${name} (off)`))
          .join(', ');
        ctx.out.fields(
          [
            ['connected', info.connected ? 'yes' : 'no'],
            ['site id', String(info.site_id)],
            ['domain', info.domain],
            ['plan', info.plan_tier],
            ['waf', info.waf_enabled ? 'enabled' : 'disabled'],
            ['features', features],
          ],
          info,
        );
      }),
    );
}
