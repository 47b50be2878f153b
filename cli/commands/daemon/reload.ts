// wafctl daemon reload: re-read the configuration without dropping connections.
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';

export function registerDaemonReload(daemon: Command, deps: CommandDeps): void {
  daemon
    .command('reload')
    .description('re-read the configuration without dropping connections')
    .addHelpText('after', '\nExample:\n  wafctl daemon reload\n')
    .action(
      withContext(deps, async (ctx) => {
        const result = await ctx.admin().reload();
        ctx.out.info('configuration reloaded');
        ctx.out.data(result, () => '');
      }),
    );
}
