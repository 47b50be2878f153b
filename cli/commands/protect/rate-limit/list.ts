// wafctl protect rate-limit list [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';
import { targetSite } from '../target-site.js';
import { rateLimitColumns } from './columns.js';

export function registerRateLimitList(group: Command, deps: CommandDeps): void {
  group
    .command('list')
    .description("show the site's rate-limited paths")
    .addHelpText('after', '\nExample:\n  wafctl protect rate-limit list --site example.com --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const site = await targetSite(ctx);
        const list = await ctx.admin().listRateLimits(site);
        ctx.out.list(list, rateLimitColumns, { empty: `no rate limits on ${site}: add one with \`wafctl protect rate-limit add PATH --per-minute N\`` });
      }),
    );
}
