// wafctl ip-rules <list|add|remove>
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerIpRulesAdd } from './add.js';
import { registerIpRulesList } from './list.js';
import { registerIpRulesRemove } from './remove.js';

export function registerIpRulesCommands(program: Command, deps: CommandDeps): void {
  const group = program.command('ip-rules').description('IP whitelist and blacklist of the site (management API)');
  registerIpRulesList(group, deps);
  registerIpRulesAdd(group, deps);
  registerIpRulesRemove(group, deps);
}
