// wafctl protect bot [on|off] [--challenge js|off] [--site D]   (no state: show the current one)
import { Argument, Option, type Command } from 'commander';
import { usageError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';
import { targetSite } from './target-site.js';

export function registerProtectBot(protect: Command, deps: CommandDeps): void {
  protect
    .command('bot')
    .description('bot protection: scanners and fake crawlers blocked, optionally a JavaScript challenge for everyone else')
    .addArgument(new Argument('[state]', 'on or off (none: show the current setting)').choices(['on', 'off']))
    .addOption(new Option('--challenge <kind>', 'JavaScript challenge: js (a real browser passes it, curl does not) or off').choices(['js', 'off']))
    .addHelpText('after', '\nExamples:\n  wafctl protect bot --site example.com\n  wafctl protect bot on --site example.com\n  wafctl protect bot on --challenge js --site example.com\n  wafctl protect bot off --site example.com\n')
    .action(
      withContext(deps, async (ctx, state: 'on' | 'off' | undefined, options: { challenge?: 'js' | 'off' }) => {
        const site = await targetSite(ctx);
        if (state === undefined && options.challenge !== undefined) throw usageError('--challenge needs on or off', 'wafctl protect bot on --challenge js');
        const bot = state === undefined
          ? await ctx.admin().getBot(site)
          : await ctx.admin().setBot(site, { enabled: state === 'on', challenge: options.challenge });
        if (state !== undefined) ctx.out.info(`bot protection on ${site} is ${bot.enabled ? 'on' : 'off'}`);
        ctx.out.fields([['bot protection', bot.enabled ? 'on' : 'off'], ['challenge', bot.challenge]], bot);
      }),
    );
}
