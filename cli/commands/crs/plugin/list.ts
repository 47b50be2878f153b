// wafctl crs plugin list
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';

export function registerCrsPluginList(plugin: Command, deps: CommandDeps): void {
  plugin
    .command('list')
    .description('list the installed CRS plugins: name, version (when the plugin says) and where each came from')
    .addHelpText('after', '\nExample:\n  wafctl crs plugin list --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const plugins = await ctx.crs().listPlugins();
        ctx.out.list(
          plugins,
          [
            { header: 'NAME', value: (p) => p.name },
            { header: 'VERSION', value: (p) => p.version ?? '-' },
            { header: 'SOURCE', value: (p) => p.source },
          ],
          { empty: 'no CRS plugin installed: add one with `wafctl crs plugin add DIR|URL`' },
        );
      }),
    );
}
