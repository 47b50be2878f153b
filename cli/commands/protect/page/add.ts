// wafctl protect page add PATH --allow IP[,IP...] [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';
import { collect } from '../../../options.js';
import { usageError } from '../../../cli-error.js';
import { targetSite } from '../target-site.js';
import { pageColumns } from './columns.js';

export function registerPageAdd(group: Command, deps: CommandDeps): void {
  group
    .command('add')
    .description('protect a path (and below it): only the allowed IPs and ranges may reach it')
    .argument('<path>', 'path prefix, e.g. /wp-admin (matched case-insensitively, on segment boundaries)')
    .option('--allow <ips>', 'IPv4/IPv6 addresses or CIDR ranges, comma-separated (repeatable)', collect, [])
    .addHelpText('after', '\nExample:\n  wafctl protect page add /wp-admin --allow 203.0.113.7,2001:db8::/32 --site example.com\n')
    .action(
      withContext(deps, async (ctx, path: string, options: { allow: string[] }) => {
        const allow = options.allow.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
        if (allow.length === 0) throw usageError('--allow names no IP', 'give the addresses that may reach the page: --allow IP[,IP...]');
        const site = await targetSite(ctx);
        const list = await ctx.admin().addProtectedPage(site, path, allow);
        ctx.out.info(`${path} on ${site} is protected`);
        ctx.out.list(list, pageColumns, { empty: '' });
      }),
    );
}
