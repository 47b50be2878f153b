// wafctl rules set [--before F | --no-before] [--after F | --no-after] [--site D]
import type { Command } from 'commander';
import type { SetRulesBody } from '../../admin-api.js';
import { usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { MAX_RULE_FILE_BYTES } from '../../../shared/schemas/site-settings.js';
import { targetSite } from '../protect/target-site.js';
import { readLocalText } from './local-file.js';
import { rulesFields } from './rules-view.js';

interface SetOptions {
  /** A path, or false for --no-before. */
  before?: string | false;
  after?: string | false;
}

async function fileChange(ctx: CommandContext, flag: string, value: string | false | undefined) {
  if (value === undefined) return undefined;
  if (value === false) return null;
  return readLocalText(ctx, flag, value, MAX_RULE_FILE_BYTES);
}

export function registerRulesSet(rules: Command, deps: CommandDeps): void {
  rules
    .command('set')
    .description('load your own SecLang files before and/or after the Core Rule Set (validated by loading them; an error changes nothing)')
    .option('--before <file>', 'SecLang loaded after crs-setup.conf, before the CRS rules (exclusions, tx settings)')
    .option('--no-before', 'remove the "before" file')
    .option('--after <file>', 'SecLang loaded after CRS and the cms group (your own rules, SecRuleRemove*/Update*)')
    .option('--no-after', 'remove the "after" file')
    .addHelpText('after', '\nThe daemon stores the text of each file (a later edit applies only with `rules set` again).\n\nExamples:\n  wafctl rules set --site example.com --after ./my-rules.conf\n  wafctl rules set --site example.com --no-after\n')
    .action(
      withContext(deps, async (ctx, options: SetOptions) => {
        const body: SetRulesBody = {};
        const before = await fileChange(ctx, '--before', options.before);
        const after = await fileChange(ctx, '--after', options.after);
        if (before !== undefined) body.before = before;
        if (after !== undefined) body.after = after;
        if (before === undefined && after === undefined) throw usageError('nothing to change', 'give --before FILE, --after FILE, --no-before or --no-after');
        const site = await targetSite(ctx);
        const view = await ctx.admin().setRules(site, body);
        ctx.out.info(`rules of ${site} updated`);
        ctx.out.fields(rulesFields(view), view);
      }),
    );
}
