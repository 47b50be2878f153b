// wafctl protect rate-limit <add|list|remove>
import type { Command } from 'commander';
import type { CommandDeps } from '../../../context.js';
import { registerRateLimitAdd } from './add.js';
import { registerRateLimitList } from './list.js';
import { registerRateLimitRemove } from './remove.js';

export function registerProtectRateLimit(protect: Command, deps: CommandDeps): void {
  const group = protect.command('rate-limit').description('requests per minute per client IP on a path prefix (429 above it)');
  registerRateLimitAdd(group, deps);
  registerRateLimitList(group, deps);
  registerRateLimitRemove(group, deps);
}
