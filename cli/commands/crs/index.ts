// wafctl crs <install|list|use|remove>: the OWASP Core Rule Set releases in the data dir, which the
// daemon runs (the selected one; see man/wafctl-crs.1). These work on the data dir directly, with
// or without a running daemon; a running daemon switches on `wafctl daemon reload`, and `crs plugin add|remove`
// tell it themselves.
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerCrsInstall } from './install.js';
import { registerCrsList } from './list.js';
import { registerCrsPluginCommands } from './plugin/index.js';
import { registerCrsRemove } from './remove.js';
import { registerCrsUse } from './use.js';

export function registerCrsCommands(program: Command, deps: CommandDeps): void {
  const crs = program.command('crs').description('install, list, select and remove OWASP Core Rule Set releases and plugins');
  registerCrsInstall(crs, deps);
  registerCrsList(crs, deps);
  registerCrsUse(crs, deps);
  registerCrsRemove(crs, deps);
  registerCrsPluginCommands(crs, deps);
}
