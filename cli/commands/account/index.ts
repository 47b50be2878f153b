// wafctl account <api-access>
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerAccountApiAccess } from './api-access.js';

export function registerAccountCommands(program: Command, deps: CommandDeps): void {
  const account = program.command('account').description('settings of the (single, default) account');
  registerAccountApiAccess(account, deps);
}
