// wafctl crs remove VERSION: the selected version is refused (the daemon would be left without
// the rules it reports); select another first.
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { parseCrsVersion } from './version-argument.js';

export function registerCrsRemove(crs: Command, deps: CommandDeps): void {
  crs
    .command('remove')
    .description('delete an installed CRS release (not the selected one)')
    .argument('<version>', 'an installed version (see `wafctl crs list`)', parseCrsVersion)
    .addHelpText('after', '\nExample:\n  wafctl crs remove 4.27.0\n')
    .action(
      withContext(deps, async (ctx, version: string) => {
        await ctx.crs().remove(version);
        ctx.out.info(`CRS ${version} removed`);
        ctx.out.data({ version, removed: true }, () => '');
      }),
    );
}
