// wafctl protect rate-limit add PATH --per-minute N [--site D]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';
import { parsePositiveInt } from '../../../options.js';
import { targetSite } from '../target-site.js';
import { rateLimitColumns } from './columns.js';

export function registerRateLimitAdd(group: Command, deps: CommandDeps): void {
  group
    .command('add')
    .description('limit the requests per minute each client IP may make to a path (and below it)')
    .argument('<path>', 'path prefix, e.g. /wp-login.php (matched case-insensitively, on segment boundaries)')
    .requiredOption('--per-minute <n>', 'requests per minute per client IP (fixed 60-second window)', parsePositiveInt)
    .addHelpText('after', '\nExample:\n  wafctl protect rate-limit add /wp-login.php --per-minute 10 --site example.com\n')
    .action(
      withContext(deps, async (ctx, path: string, options: { perMinute: number }) => {
        const site = await targetSite(ctx);
        const list = await ctx.admin().addRateLimit(site, path, options.perMinute);
        ctx.out.info(`rate limit on ${site}: ${options.perMinute} per minute on ${path}`);
        ctx.out.list(list, rateLimitColumns, { empty: '' });
      }),
    );
}
