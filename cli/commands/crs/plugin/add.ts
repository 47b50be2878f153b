// wafctl crs plugin add DIR|FILE|URL
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../../context.js';
import { tellDaemon } from './tell-daemon.js';

export function registerCrsPluginAdd(plugin: Command, deps: CommandDeps): void {
  plugin
    .command('add')
    .description('install a CRS plugin for every CRS 4 site, after checking that it loads; a running daemon switches at once')
    .argument('<source>', 'the plugin: a directory holding plugins/<name>-*.conf, a .tar.gz or .zip of one, or an http(s) URL of such an archive')
    .addHelpText(
      'after',
      '\nThe plugin is loaded with the selected CRS release and the plugins already installed before it is put in place;\na plugin that does not load, or whose name is taken, changes nothing.\n\nExamples:\n  wafctl crs plugin add ./nextcloud-rule-exclusions-plugin\n  wafctl crs plugin add https://github.com/coreruleset/nextcloud-rule-exclusions-plugin/archive/refs/tags/v1.2.0.tar.gz\n',
    )
    .action(
      withContext(deps, async (ctx, source: string) => {
        const report = await ctx.crs().addPlugin(source);
        ctx.out.info(`installed CRS plugin ${report.name}${report.version ? ` ${report.version}` : ''} at ${report.path} (loads with ${report.checked_with}: ${report.rules} rules)`);
        await tellDaemon(ctx);
        ctx.out.data(report, () => '');
      }),
    );
}
