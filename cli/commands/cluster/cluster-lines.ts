// How a node's cluster state reads for a human: one line per shared part (`cluster status`, and
// the counters line of `daemon status`). The JSON of both commands carries the same fields as is.
import type { ClusterConfig, ClusterCounters, ClusterEvents } from '../../../shared/schemas/admin.js';

const count = (n: number) => n.toLocaleString('en-US');

/** `PostgreSQL wafctl@db:5432/wafctl, version 12, listening since ...` */
export function configLine(c: ClusterConfig): string {
  const how = {
    listening: 'listening',
    polling: 'polling every 5 s (the LISTEN connection is down)',
    unreachable: 'unreachable: serving the last config, writes answer 503',
  }[c.state];
  return `PostgreSQL ${c.postgres}, version ${c.version}, ${how} since ${c.since}`;
}

/** `shipping since ..., caught up through local id 1,234` or `unreachable since ..., waiting in the spool ...` */
export function eventsLine(e: Pick<ClusterEvents, 'state' | 'since' | 'shipped_through_id' | 'spool_last_id' | 'caught_up' | 'shipped_since_start'>): string {
  const where = e.caught_up
    ? `caught up through local id ${count(e.shipped_through_id)}`
    : `shipped through local id ${count(e.shipped_through_id)} of ${count(e.spool_last_id)} (the rest waits in the local spool)`;
  const state = e.state === 'failing' ? 'failing (see the daemon log)' : e.state;
  return `${state} since ${e.since}, ${where}, ${count(e.shipped_since_start)} shipped since start`;
}

/** `Redis redis://10.0.0.7:6379, exact since ...` or `... degraded since ..., counting on this node`. */
export function countersLine(c: ClusterCounters): string {
  const what = c.state === 'exact' ? 'exact' : `degraded, ${c.failure_mode === 'deny' ? 'answering counted requests 429' : 'counting on this node'}`;
  const failed = c.failed_calls > 0 ? `, ${count(c.failed_calls)} calls answered on this node since start (Redis too slow or gone)` : '';
  return `Redis ${c.redis}, ${what} since ${c.since}${failed}`;
}
