// wafctl site <add|list|show|set|disable|enable|delete|key>
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerSiteAdd } from './add.js';
import { registerSiteDelete } from './delete.js';
import { registerSiteDisable } from './disable.js';
import { registerSiteEnable } from './enable.js';
import { registerSiteKey } from './key.js';
import { registerSiteList } from './list.js';
import { registerSiteSet } from './set.js';
import { registerSiteShow } from './show.js';

export function registerSiteCommands(program: Command, deps: CommandDeps): void {
  const site = program.command('site').description('manage protected sites and their API keys (admin socket)');
  registerSiteAdd(site, deps);
  registerSiteList(site, deps);
  registerSiteShow(site, deps);
  registerSiteSet(site, deps);
  registerSiteDisable(site, deps);
  registerSiteEnable(site, deps);
  registerSiteDelete(site, deps);
  registerSiteKey(site, deps);
}
