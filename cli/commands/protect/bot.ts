// wafctl protect bot [on|off] [--challenge js|off] [--exempt PATH]... [--unexempt PATH]... [--site D]
// (no state and no path: show the current setting). The JS challenge leaves built-in WordPress
// paths alone (shared/challenge-exempt-defaults.ts); --exempt adds a site's own.
import { Argument, Option, type Command } from 'commander';
import { BUILT_IN_EXEMPT_SUMMARY } from '../../../shared/challenge-exempt-defaults.js';
import type { BotView } from '../../admin-api.js';
import { ProtectedPathSchema } from '../../../shared/schemas/site-settings.js';
import { CliError, usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { targetSite } from './target-site.js';

interface BotOptions {
  challenge?: 'js' | 'off';
  exempt: string[];
  unexempt: string[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerProtectBot(protect: Command, deps: CommandDeps): void {
  protect
    .command('bot')
    .description('bot protection: scanners and fake crawlers blocked, optionally a JavaScript challenge for everyone else')
    .addArgument(new Argument('[state]', 'on or off (none: show the current setting, or change only exempt paths)').choices(['on', 'off']))
    .addOption(new Option('--challenge <kind>', 'JavaScript challenge: js (a real browser passes it, curl does not) or off').choices(['js', 'off']))
    .option('--exempt <path>', 'a path prefix the JS challenge leaves alone, beside the built-in ones (repeatable)', collect, [])
    .option('--unexempt <path>', 'remove a path given with --exempt (repeatable)', collect, [])
    .addHelpText('after', `
The JS challenge always leaves alone: ${BUILT_IN_EXEMPT_SUMMARY.join(', ')}.

Examples:
  wafctl protect bot --site example.com
  wafctl protect bot on --site example.com
  wafctl protect bot on --challenge js --site example.com
  wafctl protect bot --exempt /wc-api --exempt /webhooks --site example.com
  wafctl protect bot off --site example.com
`)
    .action(withContext(deps, (ctx, state: 'on' | 'off' | undefined, options: BotOptions) => bot(ctx, state, options)));
}

async function bot(ctx: CommandContext, state: 'on' | 'off' | undefined, options: BotOptions): Promise<void> {
  const site = await targetSite(ctx);
  if (state === undefined && options.challenge !== undefined) {
    throw usageError('--challenge needs on or off before it', 'wafctl protect bot on --challenge js');
  }
  for (const path of options.exempt) checkPath(path);
  const admin = ctx.admin();
  const changesPaths = options.exempt.length > 0 || options.unexempt.length > 0;
  let view = await admin.getBot(site);
  if (state !== undefined || changesPaths) {
    const missing = options.unexempt.find((path) => !view.challenge_exempt.includes(path));
    if (missing) throw usageError(`${missing} is not an exempt path of ${site}`, `the exempt paths are listed by \`wafctl protect bot --site ${site}\``);
    const exempt = [...view.challenge_exempt.filter((path) => !options.unexempt.includes(path)), ...options.exempt];
    view = await admin.setBot(site, {
      enabled: state === undefined ? view.enabled : state === 'on',
      challenge: options.challenge,
      ...(changesPaths ? { challenge_exempt: exempt } : {}),
    });
    ctx.out.info(`bot protection on ${site} is ${view.enabled ? 'on' : 'off'}`);
  }
  ctx.out.fields(botFields(view), view);
}

function botFields(view: BotView): Array<[string, string]> {
  return [
    ['bot protection', view.enabled ? 'on' : 'off'],
    ['challenge', view.challenge],
    ['exempt', view.challenge_exempt.length > 0 ? view.challenge_exempt.join(', ') : 'none of its own'],
    ['always exempt', BUILT_IN_EXEMPT_SUMMARY.join(', ')],
  ];
}

/** Checked here with the contract's own schema, so the error names the path given, not a list index. */
function checkPath(path: string): void {
  const result = ProtectedPathSchema.safeParse(path);
  if (!result.success) {
    throw new CliError('validation_error', `--exempt ${path}: ${result.error.issues[0].message}`, { hint: 'give a path prefix such as /wc-api or /webhooks/' });
  }
}
