// wafctl rules <show|set|exclude>: what the WAF engine runs for a site, and the user's own SecLang files.
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerRulesExclude } from './exclude.js';
import { registerRulesSet } from './set.js';
import { registerRulesShow } from './show.js';

export function registerRulesCommands(program: Command, deps: CommandDeps): void {
  const rules = program.command('rules').description("a site's WAF rule groups and user SecLang files (admin socket, --site D)");
  registerRulesShow(rules, deps);
  registerRulesSet(rules, deps);
  registerRulesExclude(rules, deps);
}
