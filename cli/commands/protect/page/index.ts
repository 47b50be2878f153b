// wafctl protect page <add|list|remove>
import type { Command } from 'commander';
import type { CommandDeps } from '../../../context.js';
import { registerPageAdd } from './add.js';
import { registerPageList } from './list.js';
import { registerPageRemove } from './remove.js';

export function registerProtectPage(protect: Command, deps: CommandDeps): void {
  const group = protect.command('page').description('paths only their own IP allow list may reach (others get the block response)');
  registerPageAdd(group, deps);
  registerPageList(group, deps);
  registerPageRemove(group, deps);
}
