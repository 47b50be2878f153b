// wafctl bans <list|add|remove>: addresses a site's edge refuses until a set time (admin socket).
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerBansAdd } from './add.js';
import { registerBansList } from './list.js';
import { registerBansRemove } from './remove.js';

export function registerBansCommands(program: Command, deps: CommandDeps): void {
  const bans = program.command('bans').description("a site's bans: addresses refused until a set time, by `protect auto-ban` or by hand (admin socket, --site D)");
  registerBansList(bans, deps);
  registerBansAdd(bans, deps);
  registerBansRemove(bans, deps);
}
