// wafctl crs plugin remove NAME
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';
import { tellDaemon } from './tell-daemon.js';

export function registerCrsPluginRemove(plugin: Command, deps: CommandDeps): void {
  plugin
    .command('remove')
    .description('uninstall a CRS plugin; a running daemon switches at once')
    .argument('<name>', 'the plugin name, as `wafctl crs plugin list` shows it')
    .addHelpText('after', '\nExample:\n  wafctl crs plugin remove nextcloud-rule-exclusions\n')
    .action(
      withContext(deps, async (ctx, name: string) => {
        const removed = await ctx.crs().removePlugin(name);
        ctx.out.info(`removed CRS plugin ${removed.name}`);
        await tellDaemon(ctx);
        ctx.out.data({ name: removed.name, removed: true }, () => '');
      }),
    );
}
