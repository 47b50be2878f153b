// wafctl bans remove IP [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { targetSite } from '../protect/target-site.js';

export function registerBansRemove(group: Command, deps: CommandDeps): void {
  group
    .command('remove')
    .description('lift the active bans of an address or range at once (on every node of a cluster)')
    .argument('<ip>', 'the address or range as banned (any spelling of it)')
    .addHelpText('after', '\nExample:\n  wafctl bans remove 203.0.113.7 --site example.com\n')
    .action(
      withContext(deps, async (ctx, ip: string) => {
        const site = await targetSite(ctx);
        const lifted = await ctx.admin().removeBan(site, ip);
        ctx.out.data(lifted, () => '');
        if (!ctx.out.json) ctx.out.info(`${lifted[0]!.ip} is no longer banned on ${site}`);
      }),
    );
}
