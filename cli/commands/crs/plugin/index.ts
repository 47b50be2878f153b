// wafctl crs plugin <add|list|remove>: CRS 4 plugins installed in the data dir, loaded by every
// CRS 4 site beside the release's own plugins/ (see man/wafctl-crs.1, PLUGINS).
import type { Command } from 'commander';
import type { CommandDeps } from '../../../context.js';
import { registerCrsPluginAdd } from './add.js';
import { registerCrsPluginList } from './list.js';
import { registerCrsPluginRemove } from './remove.js';

export function registerCrsPluginCommands(crs: Command, deps: CommandDeps): void {
  const plugin = crs.command('plugin').description('install, list and remove CRS plugins that every CRS 4 site loads');
  registerCrsPluginAdd(plugin, deps);
  registerCrsPluginList(plugin, deps);
  registerCrsPluginRemove(plugin, deps);
}
