import type { Logger } from 'pino';
import type { ClusterCounters as ClusterCountersStatus } from '../../shared/schemas/admin.js';
import { StartupError } from '../lifecycle/startup-errors.js';
import type { CounterStore } from '../store/counter-store.js';
import { BreakingCounterStore, type CounterFailureMode } from '../store/redis/counter-breaker.js';
import { counterScript } from '../store/redis/counter-script.js';
import { RedisCounterStore } from '../store/redis/redis-counter-store.js';
import { COMMAND_TIMEOUT_MS, connectRedis, describeRedis, isRefusal } from '../store/redis/redis-connection.js';
import { withDeadline } from '../store/redis/call-deadline.js';

// The rate-limit counters of a cluster node (--cluster-redis): one per daemon, in the primary,
// used by the edge (its workers ask over IPC), the management API and ingestion alike, so no
// client multiplies any limit by the number of nodes. Redis unreachable at start is not fatal:
// the node starts degraded (counting locally, or denying) and the breaker's probe brings it back;
// a wrong password is.

export interface ClusterCounters {
  store: CounterStore;
  status(): ClusterCountersStatus;
  close(): Promise<void>;
}

export async function openClusterCounters(options: { url: string; failureMode: CounterFailureMode; logger: Logger }): Promise<ClusterCounters> {
  const { url, failureMode, logger } = options;
  const redis = describeRedis(url);
  const client = connectRedis(url);
  const exact = new RedisCounterStore(counterScript(client));
  let unansweredProbes = 0;
  const remote = {
    hit: exact.hit.bind(exact),
    get clockOffsetMs() { return exact.clockOffsetMs; },
    async probe() {
      if (client.status === 'ready') {
        try {
          await withDeadline(client.ping(), COMMAND_TIMEOUT_MS);
          unansweredProbes = 0;
          return;
        } catch (error) {
          // A connection that looks open but has not answered twice may be dead without a FIN
          // (a partition): a new one finds out (a plain wait took 1.2 s after a link came back).
          if (++unansweredProbes >= 2) {
            unansweredProbes = 0;
            client.disconnect(true);
          }
          throw error;
        }
      }
      if (client.status === 'end') client.connect().catch(() => undefined);
      throw new Error(`Redis connection is ${client.status}`);
    },
  };
  const breaker = new BreakingCounterStore(remote, {
    failureMode,
    onTransition: ({ state, error }) => {
      if (state === 'degraded') {
        const doing = failureMode === 'deny' ? 'answering counted requests 429' : 'counting on this node (a client spread over N nodes may get up to (N+1) times a limit)';
        logger.warn({ redis, err: error }, `cluster counters: Redis unusable, ${doing} until a probe succeeds`);
      } else {
        logger.info({ redis }, 'cluster counters: Redis answers again, counting exactly');
      }
    },
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    if (isRefusal(error)) {
      client.disconnect();
      throw new StartupError(`cluster counters in Redis (${redis}) cannot be used: ${(error as Error).message}`);
    }
    breaker.startDegraded(error);
  }
  return {
    store: breaker,
    status: () => ({
      backend: 'redis',
      redis,
      state: breaker.state,
      since: new Date(breaker.since).toISOString(),
      failure_mode: failureMode,
      command_timeout_ms: COMMAND_TIMEOUT_MS,
      failed_calls: breaker.failedCalls,
    }),
    async close() {
      breaker.close();
      client.disconnect();
    },
  };
}
