// wafctl cluster join POSTGRES_URL [--redis URL] [--counter-failure open|deny]: makes this node a
// member of a cluster from its next start. It checks what it is given before it writes anything:
// the URLs (by the daemon's own rules), that PostgreSQL answers and what is there (the cluster's
// config version, sites and nodes, or nothing yet: this node will start the cluster), and with
// --redis that Redis answers. Then it writes the settings into <data>/daemon.json, keeping the
// others, and says what the next start will do.
// Decisions (also in man/wafctl-cluster.1): join never restarts a running daemon (a restart drops
// its connections: the operator picks the moment); a flag or variable given at start still wins
// over daemon.json, as for every setting; to leave a cluster, remove the keys from daemon.json.
import { mkdir, readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Option } from 'commander';
import { dataPaths } from '../../../shared/paths.js';
import { CliError, usageError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';

interface JoinFlags {
  redis?: string;
  counterFailure?: 'open' | 'deny';
}

export function registerClusterJoin(cluster: Command, deps: CommandDeps): void {
  cluster
    .command('join')
    .description("make this node a member of a cluster from its next start (checks PostgreSQL and Redis, writes daemon.json)")
    .argument('<postgres-url>', 'the cluster\'s PostgreSQL, e.g. postgres://wafctl@db.internal:5432/wafctl (the same on every node)')
    .option('--redis <url>', 'the cluster\'s Redis for shared rate limits, e.g. redis://redis.internal:6379')
    .addOption(new Option('--counter-failure <mode>', 'while Redis is unusable: open (count on this node) or deny (answer 429)').choices(['open', 'deny']))
    .addHelpText('after', '\nExamples:\n  wafctl cluster join postgres://wafctl@db.internal:5432/wafctl --redis redis://redis.internal:6379\n  wafctl daemon stop && wafctl daemon start\n')
    .action(
      withContext(deps, async (ctx, postgresUrl: string, flags: JoinFlags) => {
        // Loaded here: the rest of the CLI does not pay for pg and ioredis.
        const { checkSetting, readDaemonFile, OptionsError } = await import('../../../daemon/options/resolve-options.js');
        const { replaceFile } = await import('../../../daemon/lifecycle/safe-open.js');
        const { probePostgres, probeRedis } = await import('../../../daemon/cluster/cluster-probe.js');
        const { describePostgres } = await import('../../../daemon/cluster/postgres-target.js');
        const { describeRedis } = await import('../../../daemon/store/redis/redis-connection.js');
        const paths = dataPaths(ctx.dataDir());
        const settled = <T>(check: () => T): T => {
          try {
            return check();
          } catch (error) {
            if (error instanceof OptionsError) throw usageError(error.message);
            throw error;
          }
        };
        const postgres = settled(() => checkSetting('clusterPostgres', postgresUrl, '<postgres-url>', paths.dir)) as string;
        const redis = flags.redis === undefined ? null : (settled(() => checkSetting('clusterRedis', flags.redis!, '--redis', paths.dir)) as string);

        const found = await probePostgres(postgres).catch((error: unknown) => {
          throw new CliError('cluster_unreachable', `PostgreSQL ${describePostgres(postgres)} did not answer: ${(error as Error).message}`, {
            hint: 'check the URL, that PostgreSQL listens on that address, and that pg_hba.conf lets this host in; nothing was written',
          });
        });
        if (redis !== null) {
          await probeRedis(redis).catch((error: unknown) => {
            throw new CliError('cluster_unreachable', `Redis ${describeRedis(redis)} did not answer: ${(error as Error).message}`, { hint: 'nothing was written' });
          });
        }

        let settings: Record<string, unknown>;
        try {
          settings = await readDaemonFile(paths.daemonConfig);
        } catch (error) {
          throw new CliError('validation_error', (error as Error).message, { hint: 'fix or remove daemon.json first; nothing was written' });
        }
        settings.cluster_postgres = postgres;
        if (redis !== null) settings.cluster_redis = redis;
        if (flags.counterFailure !== undefined) settings.cluster_counter_failure = flags.counterFailure;
        await mkdir(paths.dir, { recursive: true, mode: 0o700 });
        await replaceFile(paths.daemonConfig, JSON.stringify(settings, null, 2) + '\n', 0o600);

        const ownSites = await localSites(paths.config);
        const running = await ctx.admin().status().then(() => true, () => false);
        const clusterLine = found.version === null
          ? 'none there yet: this node starts it with its own configuration'
          : `config version ${found.version}, ${found.sites} site${found.sites === 1 ? '' : 's'}, ${found.nodes} node${found.nodes === 1 ? '' : 's'} so far`;
        ctx.out.fields([
          ['postgres', describePostgres(postgres)],
          ['cluster', clusterLine],
          ['redis', redis === null ? 'not given: rate limits are counted per node' : `${describeRedis(redis)} answers`],
          ['written', paths.daemonConfig],
        ], {
          postgres: describePostgres(postgres),
          redis: redis === null ? null : describeRedis(redis),
          cluster: found,
          daemon_json: paths.daemonConfig,
          daemon_running: running,
        });
        if (found.version !== null && ownSites > 0) {
          ctx.out.warn(`this node's ${ownSites} site${ownSites === 1 ? '' : 's'} in config.json will be replaced by the cluster's configuration at its next start (copy config.json away first if they matter)`);
        }
        ctx.out.info(running ? 'the daemon is running: restart it to join (wafctl daemon stop && wafctl daemon start)' : 'start the daemon to join: wafctl daemon start');
      }),
    );
}

/** Sites (not deleted) in the node's own config.json; 0 when it has none or cannot be read. */
async function localSites(file: string): Promise<number> {
  try {
    const doc = JSON.parse(await readFile(file, 'utf8')) as { sites?: Array<{ status?: string }> };
    return (doc.sites ?? []).filter((s) => s.status !== 'deleted').length;
  } catch {
    return 0;
  }
}
