// wafctl crs list
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';

export function registerCrsList(crs: Command, deps: CommandDeps): void {
  crs
    .command('list')
    .description('list the installed CRS releases, newest first; * marks the selected one')
    .addHelpText('after', '\nExample:\n  wafctl crs list --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const releases = await ctx.crs().list();
        ctx.out.list(
          releases,
          [
            { header: '', value: (r) => (r.selected ? '*' : '') },
            { header: 'VERSION', value: (r) => r.version },
            { header: 'PATH', value: (r) => r.path },
          ],
          { empty: 'no CRS release installed: run `wafctl crs install`' },
        );
      }),
    );
}
