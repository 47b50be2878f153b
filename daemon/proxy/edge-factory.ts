import type { EdgeFactory, EdgeService } from '../edge-service.js';
import { edgeHardeningOf } from '../options/edge-limits-of.js';
import type { EventStore } from '../store/event-store.js';
import type { CounterStore } from '../store/counter-store.js';
import { watchedSink, type EdgeBans } from '../bans/edge-bans.js';
import { Edge } from './edge.js';
import { BatchingEventSink, DISCARD_EVENTS, type EventSink } from './events.js';
import { edgeConfigFromSites } from './from-config.js';
import { edgeLoadOf } from './hardening/edge-load-totals.js';
import type { RequestInspector } from './inspector.js';
import { buildEdgeSnapshot, type EdgeSnapshot } from './snapshot.js';
import { LastGoodInputs } from './last-good-inputs.js';
import type { StoredSite } from '../../shared/schemas/site.js';
import { describeSiteProblem } from './site-fallback.js';

// The real edge for app.ts: one process, snapshots rebuilt from
// the config store on every change, events batched into the event store (which also writes the
// audit log). Builds are isolated per site (snapshot.ts SiteIsolation): a site that does not
// compile keeps its last good rules, or is served unavailable, with a log line; the other sites
// and the start go on.
// Multi-worker operation uses cluster-ipc.ts; the daemon's process model decides when to fork.

export interface ProxyEdgeOptions {
  eventStore?: EventStore;
  inspector?: RequestInspector;
  counters?: CounterStore;
  /** --trusted-proxy CIDRs. */
  trustedProxies?: readonly string[];
  /** JS-challenge HMAC key; keep it stable across restarts (e.g. from the data dir). */
  challengeSecret?: Buffer | string;
  /** The node's bans: the table the checks look in, and the watcher of the edge's events (strikes). */
  bans?: EdgeBans;
}


export function createProxyEdgeFactory(extra: ProxyEdgeOptions = {}): EdgeFactory {
  return ({ options, store, logger, tls }): EdgeService => {
    const hardening = edgeHardeningOf(options);
    const stored = extra.eventStore ? storeSink(extra.eventStore, (err) => logger.error({ err }, 'edge: event write failed')) : null;
    const sink: EventSink = watchedSink(stored ?? DISCARD_EVENTS, extra.bans);
    const inputs = new LastGoodInputs();
    const build = (sites: readonly StoredSite[], previous: EdgeSnapshot | null): EdgeSnapshot => {
      const { config, problems } = inputs.select(edgeConfigFromSites(sites));
      const snapshot = buildEdgeSnapshot(config, { previous });
      for (const problem of [...problems, ...snapshot.problems]) logger.error(describeSiteProblem(problem));
      return snapshot;
    };
    const first = build(store.snapshot().sites, null);
    const edge = new Edge({
      snapshot: first,
      sink,
      inspector: extra.inspector,
      counters: extra.counters,
      bans: extra.bans?.table,
      trustedProxies: extra.trustedProxies,
      challengeSecret: extra.challengeSecret,
      fallbackTls: { cert: tls.cert, key: tls.key },
      limits: hardening.limits,
      maxBodyBytes: hardening.maxBodyBytes,
    });
    const unsubscribe = store.onChange((snapshot) => {
      try {
        edge.setSnapshot(build(snapshot.sites, edge.snapshot));
      } catch (err) {
        logger.error({ err }, 'edge: new configuration not applied, the previous one stays');
      }
    });
    return {
      async listen(host, ports) {
        const bound = await edge.listenHttp({ port: ports.edge, host });
        const boundTls = await edge.listenHttps({ port: ports.edgeTls, host });
        return { edge: bound, edgeTls: boundTls };
      },
      async close(drainMs) {
        unsubscribe();
        await edge.close(drainMs);
        if (stored) await stored.flush();
      },
      // One process: the shedder is right here, read it directly.
      load: () => edgeLoadOf(edge.loadStats()),
    };
  };
}

function storeSink(events: EventStore, onError: (err: unknown) => void): BatchingEventSink {
  return new BatchingEventSink({
    writeWaf: async (batch) => { await events.appendWafEvents(batch); },
    writeAccess: async (batch) => { await events.appendAccessEntries(batch); },
  }, { onError, onDropped: (dropped) => onError(new Error(`${dropped} events dropped: the event store is slower than the traffic (queue full)`)) });
}
