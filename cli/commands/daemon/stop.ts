// wafctl daemon stop: graceful (stop accepting, drain, flush, exit); returns once it has exited.
import type { Command } from 'commander';
import { CliError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';

export function registerDaemonStop(daemon: Command, deps: CommandDeps): void {
  daemon
    .command('stop')
    .description('stop the daemon gracefully and wait until it has exited')
    .addHelpText('after', '\nExample:\n  wafctl daemon stop\n')
    .action(
      withContext(deps, async (ctx) => {
        const dataDir = ctx.dataDir();
        const result = await ctx.deps.daemon.stop({ dataDir });
        if (!result.ok) {
          if (result.notRunning) {
            throw new CliError('daemon_unreachable', `no daemon is running on ${dataDir}`, { hint: 'nothing to stop' });
          }
          throw new CliError('daemon_stop_failed', result.reason);
        }
        ctx.out.info(`wafctl daemon stopped${result.pid ? ` (pid ${result.pid})` : ''}`);
        ctx.out.data({ stopped: true, pid: result.pid ?? null }, () => '');
      }),
    );
}
