// wafctl daemon <start|stop|status|reload|check>
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerDaemonCheck } from './check.js';
import { registerDaemonReload } from './reload.js';
import { registerDaemonStart } from './start.js';
import { registerDaemonStatus } from './status.js';
import { registerDaemonStop } from './stop.js';

export function registerDaemonCommands(program: Command, deps: CommandDeps): void {
  const daemon = program.command('daemon').description('start, stop, inspect and reload the wafctl daemon');
  registerDaemonStart(daemon, deps);
  registerDaemonStop(daemon, deps);
  registerDaemonStatus(daemon, deps);
  registerDaemonReload(daemon, deps);
  registerDaemonCheck(daemon, deps);
}
