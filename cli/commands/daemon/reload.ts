// wafctl daemon reload: re-read the configuration without dropping connections, and switch to the
// CRS release selected with `wafctl crs use` (and the installed CRS plugins) if they changed.
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { crsReloadedLine } from './crs-line.js';

export function registerDaemonReload(daemon: Command, deps: CommandDeps): void {
  daemon
    .command('reload')
    .description('re-read the configuration and the selected CRS release and plugins, without dropping connections')
    .addHelpText('after', '\nExample:\n  wafctl daemon reload\n')
    .action(
      withContext(deps, async (ctx) => {
        const result = await ctx.admin().reload();
        ctx.out.info('configuration reloaded');
        if (result.crs) ctx.out.info(crsReloadedLine(result.crs));
        ctx.out.data(result, () => '');
      }),
    );
}
