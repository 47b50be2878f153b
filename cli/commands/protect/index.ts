// wafctl protect <rate-limit|page|bot|auto-ban>: the site's non-rule protections (admin socket).
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerProtectAutoBan } from './auto-ban.js';
import { registerProtectBot } from './bot.js';
import { registerProtectPage } from './page/index.js';
import { registerProtectRateLimit } from './rate-limit/index.js';

export function registerProtectCommands(program: Command, deps: CommandDeps): void {
  const protect = program.command('protect').description("a site's rate limits, protected pages, bot protection and auto-ban (admin socket, --site D)");
  registerProtectRateLimit(protect, deps);
  registerProtectPage(protect, deps);
  registerProtectBot(protect, deps);
  registerProtectAutoBan(protect, deps);
}
