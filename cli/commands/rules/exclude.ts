// wafctl rules exclude --event ID [--dry-run] [--force] | --remove --event ID [--site D]
// Fixes a false positive in one command: the daemon writes the narrowest exclusion for the
// request's rules (ctl:ruleRemoveTargetById per rule and variable, on that path, in the site's
// before file), replays the stored request through the rules without and with it, and applies it
// only when the replay proves it. Decisions: daemon/admin/routes/rule-exclusions.ts and the man page.
import type { Command } from 'commander';
import type { ExclusionResult } from '../../admin-api.js';
import { CliError, usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { targetSite } from '../protect/target-site.js';

interface ExcludeOptions {
  event?: string;
  dryRun?: boolean;
  force?: boolean;
  remove?: boolean;
}

export function registerRulesExclude(rules: Command, deps: CommandDeps): void {
  rules
    .command('exclude')
    .description("let one blocked request through: the narrowest exclusion for its rules, proved by a replay, in the site's before file")
    .option('--event <id>', 'the event id (from `wafctl logs`) or the request id on the block page')
    .option('--dry-run', 'show the exclusion and the replay verdict; change nothing')
    .option('--force', 'apply even when the replay does not prove the exclusion')
    .option('--remove', 'take the exclusion made for that request (or event) out again')
    .addHelpText('after', '\nExamples:\n  wafctl rules exclude --site example.com --event 9abeafa8-7907-49ea-bd85-fbc41ceab8df --dry-run\n  wafctl rules exclude --site example.com --event 9abeafa8-7907-49ea-bd85-fbc41ceab8df\n  wafctl rules exclude --site example.com --remove --event 9abeafa8-7907-49ea-bd85-fbc41ceab8df\n')
    .action(withContext(deps, (ctx, options: ExcludeOptions) => runExclude(ctx, options)));
}

async function runExclude(ctx: CommandContext, options: ExcludeOptions): Promise<void> {
  const event = options.event?.trim();
  if (!event) throw usageError('--event is required', 'give the event id from `wafctl logs` or the request id on the block page');
  if (options.remove && (options.dryRun || options.force)) throw usageError('--remove takes no --dry-run or --force', 'run `wafctl rules exclude --remove --event ID` alone');
  const site = await targetSite(ctx);
  if (options.remove) {
    const removed = await ctx.admin().removeExclusion(site, event);
    ctx.out.data(removed, () => removed.removed);
    ctx.out.info(`exclusion of request ${removed.request_id} removed from the before file of ${site}`);
    return;
  }
  const result = await ctx.admin().excludeEvent(site, { event, dry_run: options.dryRun === true, force: options.force === true });
  ctx.out.data(result, () => `${result.rule}\n${verdictLine(result)}`);
  for (const warning of result.warnings) ctx.out.warn(warning);
  if (result.applied) ctx.out.info(`applied to the before file of ${site}${result.replay.passes && result.replay.blocked_before ? '' : ' (--force: not proved by the replay)'}`);
  else if (options.dryRun) ctx.out.info('dry run: nothing was changed');
  if (!result.replay.blocked_before && !options.force) {
    throw new CliError('not_reproduced', `the replay of the stored parts of request ${result.request_id} is not blocked even without the exclusion, so it proves nothing${options.dryRun ? '' : '; nothing was changed'}`, {
      hint: 'check the request with `wafctl logs show ID`; apply anyway with --force',
    });
  }
  if (!result.replay.passes && !options.force) {
    throw new CliError('still_blocked', `request ${result.request_id} would still be blocked by ${result.replay.rules_still_matching.join(', ') || 'the rules'}${options.dryRun ? '' : '; nothing was changed'}`, {
      hint: 'the event did not record every rule; apply anyway with --force, or write the exclusion with `wafctl rules set --before FILE`',
    });
  }
}

/** "request 7f3a... would now pass; rules 942100 on ARGS:post_content excluded on /wp-admin/post.php" */
export function verdictLine(result: ExclusionResult): string {
  const byTarget = new Map<string, string[]>();
  for (const t of result.excluded) {
    const where = t.target ?? `every variable (${t.matched_var ?? 'none recorded'})`;
    byTarget.set(where, [...(byTarget.get(where) ?? []), t.rule_id]);
  }
  const what = [...byTarget].map(([where, ids]) => `${ids.length === 1 ? 'rule' : 'rules'} ${ids.join(', ')} on ${where}`).join('; ');
  const verdict = result.replay.passes
    ? 'would now pass'
    : `would still be blocked (${result.replay.rules_still_matching.join(', ') || 'no scoring rule recorded'})`;
  return `request ${result.request_id} ${verdict}; ${what} excluded on ${result.path}`;
}
