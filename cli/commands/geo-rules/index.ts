// wafctl geo-rules <show|set|disable>
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerGeoRulesDisable } from './disable.js';
import { registerGeoRulesSet } from './set.js';
import { registerGeoRulesShow } from './show.js';

export function registerGeoRulesCommands(program: Command, deps: CommandDeps): void {
  const group = program.command('geo-rules').description('geographic access rules of the site (management API)');
  registerGeoRulesShow(group, deps);
  registerGeoRulesSet(group, deps);
  registerGeoRulesDisable(group, deps);
}
