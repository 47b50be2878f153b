// wafctl ip-rules remove IP (--whitelist|--blacklist) (DELETE /ip-rules).
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { listFromFlags, type ListFlags } from './list-flag.js';

export function registerIpRulesRemove(group: Command, deps: CommandDeps): void {
  group
    .command('remove')
    .description('remove an IP address or CIDR range from a list')
    .argument('<ip>', 'the address or range as it was added (any spelling of it)')
    .option('--whitelist', 'remove from the whitelist')
    .option('--blacklist', 'remove from the blacklist')
    .addHelpText('after', '\nExample:\n  wafctl ip-rules remove 1.2.3.4 --whitelist\n')
    .action(
      withContext(deps, async (ctx, ip: string, options: ListFlags) => {
        const type = listFromFlags(options);
        const result = await (await ctx.api()).request('DELETE', '/ip-rules', { body: { ip, type } });
        ctx.out.data({ ip, list: type, message: result.message ?? '' }, () => '');
        if (!ctx.out.json) ctx.out.info(result.message ?? `${ip} removed from the ${type}`);
      }),
    );
}
