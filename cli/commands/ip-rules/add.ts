// wafctl ip-rules add IP (--whitelist|--blacklist) [--description D] (POST /ip-rules/<list>).
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { listFromFlags, type ListFlags } from './list-flag.js';

export function registerIpRulesAdd(group: Command, deps: CommandDeps): void {
  group
    .command('add')
    .description('add an IP address or CIDR range to the whitelist or the blacklist')
    .argument('<ip>', 'IPv4 or IPv6 address, or CIDR range')
    .option('--whitelist', 'add to the whitelist (skips every check)')
    .option('--blacklist', 'add to the blacklist (blocked at the edge)')
    .option('--description <text>', 'a note, at most 100 characters')
    .addHelpText('after', '\nExamples:\n  wafctl ip-rules add 1.2.3.4 --whitelist\n  wafctl ip-rules add 203.0.113.0/24 --blacklist --description "scanner"\n')
    .action(
      withContext(deps, async (ctx, ip: string, options: ListFlags & { description?: string }) => {
        const list = listFromFlags(options);
        const body = options.description === undefined ? { ip } : { ip, description: options.description };
        const result = await (await ctx.api()).request('POST', `/ip-rules/${list}`, { body });
        ctx.out.data({ ip, list, message: result.message ?? '' }, () => '');
        if (!ctx.out.json) ctx.out.info(result.message ?? `${ip} added to the ${list}`);
      }),
    );
}
