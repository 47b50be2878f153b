// wafctl bans add IP [--for DURATION] [--reason TEXT] [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { parseMinutes } from '../../options.js';
import { targetSite } from '../protect/target-site.js';

export function registerBansAdd(group: Command, deps: CommandDeps): void {
  group
    .command('add')
    .description('ban an address or CIDR range from the site for a while (the whitelist still wins)')
    .argument('<ip>', 'IPv4 or IPv6 address, or CIDR range')
    .option('--for <duration>', 'how long: 30m, 12h, 7d (default 1h, at most 365d)', parseMinutes)
    .option('--reason <text>', 'a note shown in `bans list` and the logs, at most 200 characters')
    .addHelpText('after', '\nExamples:\n  wafctl bans add 203.0.113.7 --for 12h --reason "credential stuffing" --site example.com\n  wafctl bans add 198.51.100.0/24 --for 7d --site example.com\n')
    .action(
      withContext(deps, async (ctx, ip: string, options: { for?: number; reason?: string }) => {
        const site = await targetSite(ctx);
        const ban = await ctx.admin().addBan(site, { ip, ...(options.for !== undefined ? { minutes: options.for } : {}), ...(options.reason !== undefined ? { reason: options.reason } : {}) });
        ctx.out.data(ban, () => '');
        if (!ctx.out.json) ctx.out.info(`${ban.ip} banned on ${site} until ${ban.expires_at}`);
      }),
    );
}
