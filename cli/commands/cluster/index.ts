// wafctl cluster <status|join>
import type { Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { registerClusterJoin } from './join.js';
import { registerClusterStatus } from './status.js';

export function registerClusterCommands(program: Command, deps: CommandDeps): void {
  const cluster = program.command('cluster').description('the cluster this node belongs to (--cluster-postgres, --cluster-redis)');
  registerClusterStatus(cluster, deps);
  registerClusterJoin(cluster, deps);
}
