// wafctl protect auto-ban [--strikes N --within DURATION --ban-for DURATION | --off] [--site D]
// (no option: show the setting). A strike is a client's first request over one of the site's
// rate limits in a minute; `strikes` of them within the window ban the client (daemon/bans/).
import type { Command } from 'commander';
import type { AutoBan } from '../../admin-api.js';
import { usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { parseMinutes, parsePositiveInt } from '../../options.js';
import { targetSite } from './target-site.js';

interface AutoBanOptions {
  strikes?: number;
  within?: number;
  banFor?: number;
  off?: boolean;
}

const DEFAULTS: AutoBan = { strikes: 3, window_minutes: 10, ban_minutes: 60 };

export function registerProtectAutoBan(protect: Command, deps: CommandDeps): void {
  protect
    .command('auto-ban')
    .description('ban a client that keeps going over the site\'s rate limits (needs at least one rate limit)')
    .option('--strikes <n>', `windows over a rate limit that make a ban (default ${DEFAULTS.strikes})`, parsePositiveInt)
    .option('--within <duration>', `the window strikes are counted in, e.g. 10m (default ${DEFAULTS.window_minutes}m, at most 24h)`, parseMinutes)
    .option('--ban-for <duration>', `how long a ban lasts, e.g. 1h, 7d (default ${DEFAULTS.ban_minutes}m)`, parseMinutes)
    .option('--off', 'stop banning automatically (bans already set run their course; lift them with `wafctl bans remove`)')
    .addHelpText('after', '\nExamples:\n  wafctl protect auto-ban --site example.com\n  wafctl protect auto-ban --strikes 3 --within 10m --ban-for 1h --site example.com\n  wafctl protect auto-ban --off --site example.com\n')
    .action(withContext(deps, (ctx, options: AutoBanOptions) => autoBan(ctx, options)));
}

async function autoBan(ctx: CommandContext, options: AutoBanOptions): Promise<void> {
  const site = await targetSite(ctx);
  const admin = ctx.admin();
  const changes = options.strikes !== undefined || options.within !== undefined || options.banFor !== undefined;
  if (options.off && changes) throw usageError('--off takes no other option', `wafctl protect auto-ban --off --site ${site}`);
  let setting = await admin.getAutoBan(site);
  if (options.off) {
    setting = await admin.setAutoBan(site, null);
    ctx.out.info(`auto-ban on ${site} is off`);
  } else if (changes) {
    const base = setting ?? DEFAULTS;
    setting = await admin.setAutoBan(site, {
      strikes: options.strikes ?? base.strikes,
      window_minutes: options.within ?? base.window_minutes,
      ban_minutes: options.banFor ?? base.ban_minutes,
    });
    if ((await admin.listRateLimits(site)).length === 0) ctx.out.warn(`${site} has no rate limit yet: nothing strikes until one is added (\`wafctl protect rate-limit add PATH --per-minute N\`)`);
  }
  ctx.out.fields(
    setting === null
      ? [['auto-ban', 'off']]
      : [['auto-ban', 'on'], ['strikes', `${setting.strikes} windows over a rate limit`], ['within', `${setting.window_minutes} min`], ['ban for', `${setting.ban_minutes} min`]],
    setting,
  );
}
