// wafctl crs use VERSION
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { parseCrsVersion } from './version-argument.js';

export function registerCrsUse(crs: Command, deps: CommandDeps): void {
  crs
    .command('use')
    .description('select the installed CRS release the daemon runs')
    .argument('<version>', 'an installed version (see `wafctl crs list`)', parseCrsVersion)
    .addHelpText('after', '\nExample:\n  wafctl crs use 4.28.0 && wafctl daemon stop && wafctl daemon start\n')
    .action(
      withContext(deps, async (ctx, version: string) => {
        await ctx.crs().use(version);
        ctx.out.info(`CRS ${version} selected: a running daemon switches to it on \`wafctl daemon reload\``);
        ctx.out.data({ version, selected: true }, () => '');
      }),
    );
}
