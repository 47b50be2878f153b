// wafctl daemon check: does the running daemon have a rule set? Exit 0 when a Core Rule Set runs,
// 1 (`no_rule_set`) when none does, so scripts and health checks can tell a real WAF from one that
// only runs the cms group.
import type { Command } from 'commander';
import { CliError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';
import { crsLine, NO_RULE_SET_HINT } from './crs-line.js';

export function registerDaemonCheck(daemon: Command, deps: CommandDeps): void {
  daemon
    .command('check')
    .description('exit 0 when the running daemon runs a Core Rule Set, 1 when it runs none')
    .addHelpText('after', '\nExample:\n  wafctl daemon check && echo protected\n')
    .action(
      withContext(deps, async (ctx) => {
        const { crs } = await ctx.admin().status();
        if (!crs.found) throw new CliError('no_rule_set', `the daemon runs no Core Rule Set (looked in ${crs.dir})`, { hint: NO_RULE_SET_HINT });
        ctx.out.info(`ok: ${crsLine(crs)}`);
        ctx.out.data(crs, () => '');
      }),
    );
}
