// wafctl token <create|list|revoke>
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerTokenCreate } from './create.js';
import { registerTokenList } from './list.js';
import { registerTokenRevoke } from './revoke.js';

export function registerTokenCommands(program: Command, deps: CommandDeps): void {
  const token = program.command('token').description('manage ingestion API tokens of the account');
  registerTokenCreate(token, deps);
  registerTokenList(token, deps);
  registerTokenRevoke(token, deps);
}
