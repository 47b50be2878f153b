// wafctl cluster status: how this node shares the cluster's configuration (PostgreSQL), WAF events
// (PostgreSQL) and rate-limit counters (Redis), from the daemon's own status over the admin socket.
// Decisions (also in man/wafctl-cluster.1): a node that runs alone is an error (not_clustered, exit
// 1), so a script that expects a cluster notices; a node in the cluster exits 0 whatever the state
// of its parts (degraded is a state to show, not a failure of the command): monitoring reads --json.
import type { Command } from 'commander';
import { CliError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';
import { configLine, countersLine, eventsLine } from './cluster-lines.js';

export function registerClusterStatus(cluster: Command, deps: CommandDeps): void {
  cluster
    .command('status')
    .description("show how this node shares the cluster's config, WAF events, access rollups and rate-limit counters")
    .addHelpText('after', '\nExample:\n  wafctl cluster status --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const status = await ctx.admin().status();
        const c = status.cluster;
        if (!c) {
          throw new CliError('not_clustered', 'this daemon runs alone (no --cluster-postgres or --cluster-redis)', {
            hint: 'start every node with --cluster-postgres URL (shared config and WAF events) and --cluster-redis URL (shared rate limits)',
          });
        }
        const fields: Array<[string, string]> = [
          ['node', c.events ? `${c.events.node} (pid ${status.pid})` : `pid ${status.pid}`],
          ['config', c.config ? configLine(c.config) : 'this node\'s own config.json (no --cluster-postgres)'],
          ['waf events', c.events ? eventsLine(c.events) : 'this node\'s own store (no --cluster-postgres)'],
          ...(c.events?.access ? [['access rollups', eventsLine(c.events.access)] as [string, string]] : []),
          ['rate limits', c.counters ? countersLine(c.counters) : 'counted on this node alone (no --cluster-redis)'],
        ];
        ctx.out.fields(fields, { counters: c.counters, config: c.config ?? null, events: c.events ?? null });
      }),
    );
}
