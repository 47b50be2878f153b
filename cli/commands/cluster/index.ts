// wafctl cluster <status>
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerClusterStatus } from './status.js';

export function registerClusterCommands(program: Command, deps: CommandDeps): void {
  const cluster = program.command('cluster').description('the cluster this node belongs to (--cluster-postgres, --cluster-redis)');
  registerClusterStatus(cluster, deps);
}
