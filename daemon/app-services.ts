import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { WafctlError } from '../shared/errors.js';
import type { DataPaths } from '../shared/paths.js';
import type { StoredSite } from '../shared/schemas/site.js';
import type { RegisterAdminRoutes } from './admin/server.js';
import type { RegisterRoutes } from './api/server.js';
import type { ManagementDependencies } from './api/v1/dependencies.js';
import { managementApiPlugin } from './api/v1/plugin.js';
import { startCrsOf, type EdgeFactory, type EdgeService } from './edge-service.js';
import { ingestPlugin, type IngestDependencies } from './ingest/plugin.js';
import { watchHeapPressure, type HeapPressureWatch } from './lifecycle/heap-pressure.js';
import { readTrustedFile, replaceFile } from './lifecycle/safe-open.js';
import type { DaemonOptions } from './options/option-table.js';
import type { ConfigSnapshot, ConfigStore } from './store/config/config-store.js';
import { findSite } from './store/config/sites.js';
import { tokenForBearer, touchToken } from './store/config/tokens.js';
import { MemoryCounterStore, type CounterStore } from './store/counter-store.js';
import { openClusterCounters } from './cluster/cluster-counters.js';
import type { ClusterCounters as ClusterCountersStatus } from '../shared/schemas/admin.js';
import type { EventStore } from './store/event-store.js';
import type { EventLogger } from './store/events/event-logger.js';
import { openJsonlEventStore, type JsonlEventStore } from './store/events/jsonl-event-store.js';
import { openClusterEventStore } from './cluster/events/cluster-event-store.js';
import { sharedSecret } from './cluster/shared-secret.js';
import { vulndbAdminRoutes } from './admin/routes/vulndb.js';
import { VulnDb } from './vulndb/vulndb.js';
import type { ClusterEvents } from '../shared/schemas/admin.js';
import { banAdminRoutes } from './admin/routes/bans.js';
import { BanService } from './bans/ban-service.js';
import type { BanStore } from './bans/ban-store.js';
import { FileBanStore } from './bans/file-ban-store.js';
import { openPgBanStore } from './cluster/bans/pg-ban-store.js';

// The parts app.ts plugs together beyond the foundation: the event store, the management API
// (/api/v1), ingestion (/api/vector), the vulnerability database and the real edge. Each part
// defines what it needs (its *Dependencies); this file answers those needs from the config store.

export interface Services {
  eventStore: EventStore;
  vulndb: VulnDb;
  apiRoutes: RegisterRoutes[];
  /** Admin-socket routes of later issues (protection settings, rules, vulndb); add them to ROUTES.md too. */
  adminRoutes: RegisterAdminRoutes[];
  /** The real edge (daemon/proxy), unless buildApp is given another factory. */
  edgeFactory: EdgeFactory;
  /** The cluster's shared counters (--cluster-redis) for status; null when this node counts on its own. */
  clusterCounters(): ClusterCountersStatus | null;
  /** The shipper of this node's WAF events (--cluster-postgres); null on a single node. */
  clusterEvents(): ClusterEvents | null;
  /** The node's bans (daemon/bans/). */
  bans: BanService;
  close(): Promise<void>;
}

/** last_used_at is written at most this often per token: ingestion must not rewrite config.json per request. */
const TOKEN_TOUCH_EVERY_MS = 60_000;

export async function openServices(context: { options: DaemonOptions; paths: DataPaths; store: ConfigStore; logger: Logger; now: () => Date }): Promise<Services> {
  const { options, paths, store, logger, now } = context;
  const localEvents = await openJsonlEventStore({
    dir: paths.eventsDir,
    logger: eventLogger(logger.child({ component: 'event-store' })),
    auditLogPath: options.auditLog ?? undefined,
    indexMemory: { residentBytes: options.eventsIndexMemoryBytes },
  });
  // Cluster mode: the local store is the spool of a shipper to PostgreSQL, which /waf-logs reads.
  const clusterEvents = options.clusterPostgres
    ? await openClusterEventStore({ url: options.clusterPostgres, local: localEvents, logger: logger.child({ component: 'cluster-events' }) })
    : null;
  const eventStore: EventStore = clusterEvents ?? localEvents;
  const heapWatch = relieveHeapPressureWithIndex(localEvents, logger);
  const vulndb = await VulnDb.open(paths.vulndbDir);
  if (options.vulndbRefreshUrl !== null) {
    const intervalMs = options.vulndbRefreshHours * 3_600_000;
    vulndb.startRefresh({
      url: options.vulndbRefreshUrl,
      intervalMs,
      // With no database yet, fetch soon; otherwise one interval after start.
      initialDelayMs: vulndb.status().loaded ? intervalMs : 1_000,
      onResult: (outcome) => {
        if (outcome.ok) logger.info({ changed: outcome.result !== null }, 'vulnerability feed refreshed');
        else logger.warn({ err: outcome.error }, 'vulnerability feed refresh failed; the current database stays');
      },
    });
  }
  // With --cluster-redis one store, in this (primary) process, counts for the API, ingestion and the
  // edge: limits hold across nodes. Without it, each keeps its own counters as before.
  const sharedCounters = options.clusterRedis === null ? null : await openClusterCounters({ url: options.clusterRedis, failureMode: options.clusterCounterFailure, logger: logger.child({ component: 'cluster-counters' }) });
  const edgeCounters = (): CounterStore => sharedCounters?.store ?? new MemoryCounterStore();
  const apiCounter = sharedCounters?.store ?? new MemoryCounterStore();

  // Bans: in PostgreSQL (with Redis fan-out) in a cluster, in <data>/bans.json alone; strikes are
  // counted where the rate limits are, so a cluster with Redis bans on strikes from every node.
  const banLogger = logger.child({ component: 'bans' });
  const banStore: BanStore = options.clusterPostgres
    ? await openPgBanStore({ url: options.clusterPostgres, redis: options.clusterRedis, logger: banLogger })
    : await FileBanStore.open(paths.bans, banLogger);
  const bans = new BanService({
    store: banStore,
    // Shared strike counts only where the bans are shared too: with Redis but no PostgreSQL, the
    // one node reaching the count would ban in its own file and the others never would.
    counters: options.clusterPostgres && sharedCounters ? sharedCounters.store : new MemoryCounterStore(),
    sites: () => store.snapshot().sites,
    events: (event) => { eventStore.appendWafEvents([event]).catch((err: unknown) => banLogger.error({ err }, 'bans: the ban\'s WAF event could not be stored')); },
    logger: banLogger,
  });

  const management: ManagementDependencies = {
    findSiteByKeyHash: (hash) => keyIndex(store.snapshot()).get(hash),
    updateSite: (siteId, change) => store.update((draft) => {
      const site = draft.sites.find((s) => s.id === siteId);
      if (!site) throw new WafctlError('not_found', `site ${siteId} no longer exists`);
      const result = change(site);
      site.updated_at = now().toISOString();
      return result;
    }),
    wafLogs: async (siteId, query) => {
      const { logs, pagination } = await eventStore.searchWafLogs({ site_id: siteId, page: query.page, per_page: query.per_page, search: query.search, with_action: query.include === 'action' });
      return { logs, pagination };
    },
    wafRequest: (siteId, key) => eventStore.wafRequest(siteId, key),
    analytics: (siteId, period, at) => eventStore.analytics({ site_id: siteId, period, now: at.getTime() }),
    topList: async (siteId, period, kind, limit, at) => {
      const countryOf = kind === 'countries' ? await countryLookup() : undefined;
      return eventStore.topList({ site_id: siteId, period, kind, limit, now: at.getTime(), countryOf });
    },
    checkVulnerabilities: async (body, at) => {
      const parsed = vulndb.parseCheckRequest(body);
      if (!parsed.ok) throw new WafctlError('validation_error', parsed.message);
      return { ...vulndb.check(parsed.request, at) };
    },
    counter: apiCounter,
    now: () => now().getTime(),
  };

  const lastTouched = new Map<number, number>();
  const ingest: IngestDependencies = {
    authenticate(token) {
      const found = tokenForBearer(store.snapshot(), token);
      if (!found.ok) return null;
      const at = now().getTime();
      if (at - (lastTouched.get(found.token.id) ?? 0) >= TOKEN_TOUCH_EVERY_MS) {
        lastTouched.set(found.token.id, at);
        store.update((draft) => touchToken(draft, found.token.id, new Date(at).toISOString()))
          .catch((err: unknown) => logger.warn({ err }, 'could not record token use'));
      }
      return { accountId: String(found.account.id), tokenId: String(found.token.id) };
    },
    siteOf(accountId, host) {
      const site = findSite(store.snapshot(), host);
      if (!site || String(site.account_id) !== accountId) return { problem: `host ${host} is not a site of this account` };
      if (site.status === 'deleted') return { problem: `site ${host} has been deleted` };
      return { siteId: site.id };
    },
    // In cluster mode acknowledged means in PostgreSQL (daemon/cluster/README.md).
    storeWaf: async (entries) => { await (clusterEvents ? clusterEvents.appendWafEventsShipped(entries) : eventStore.appendWafEvents(entries)); },
    storeAccess: async (entries) => { await (clusterEvents ? clusterEvents.appendAccessEntriesShipped(entries) : eventStore.appendAccessEntries(entries)); },
    counter: apiCounter,
    requestsPerMinute: options.ingestRateLimit,
    now: () => now().getTime(),
  };

  const apiRoutes: RegisterRoutes[] = [
    async (app: FastifyInstance) => { await app.register(managementApiPlugin, { deps: management, prefix: '/api/v1' }); },
    async (app: FastifyInstance) => { await app.register(ingestPlugin, { deps: ingest }); },
  ];

  // Loaded on demand: the proxy and its checks take about a second to import, a cost a daemon
  // built with another edge factory (tests of the API alone) does not pay.
  // With --workers N > 1 the edge runs in N node:cluster workers (lifecycle/edge-workers.ts).
  const edgeFactory: EdgeFactory = async (edgeContext) => {
    const secret = options.clusterPostgres
      ? await clusterChallengeSecret(options.clusterPostgres, paths.challengeKey, logger)
      : await challengeSecret(paths.challengeKey);
    if (options.workers > 1) {
      const { clusteredEdgeFactory } = await import('./lifecycle/edge-workers.js');
      const { BatchingEventSink } = await import('./proxy/events.js');
      const sink = new BatchingEventSink({
        writeWaf: async (batch) => { await eventStore.appendWafEvents(batch); },
        writeAccess: async (batch) => { await eventStore.appendAccessEntries(batch); },
      }, {
        onError: (err) => logger.error({ err }, 'edge: event write failed'),
        onDropped: (dropped) => logger.warn({ dropped }, 'edge: events dropped, the event store is slower than the traffic (queue full)'),
      });
      return clusteredEdgeFactory({ workers: options.workers, counters: edgeCounters(), sink, trustedProxies: options.trustedProxies, challengeSecret: secret, bans })(edgeContext);
    }
    const { createProxyEdgeFactory } = await import('./proxy/edge-factory.js');
    const { createEngineInspector } = await import('./rule-sets/engine-inspector.js');
    const { findCrs, RuleGroups } = await import('./rule-sets/rule-groups.js');
    const start = startCrsOf(edgeContext);
    const crs = findCrs(start.dir, start.pluginDirs);
    if (crs === null) logger.warn({ crs_dir: start.dir }, 'Core Rule Set not found: the edge runs the cms rule group only');
    const groups = new RuleGroups(crs, { log: (message) => logger.error(message) });
    groups.forParanoia(1); // compiled before the edge listens, not on the first request
    const inspector = createEngineInspector(groups, { timeBudgetMs: options.wafTimeBudgetMs });
    const edge = await createProxyEdgeFactory({ eventStore, counters: edgeCounters(), trustedProxies: options.trustedProxies, challengeSecret: secret, inspector, bans })(edgeContext);
    return { ...bound(edge), switchCrs: (next) => groups.switchCrs(findCrs(next.dir, next.pluginDirs)) };
  };

  return {
    eventStore,
    vulndb,
    apiRoutes,
    adminRoutes: [vulndbAdminRoutes(vulndb), banAdminRoutes(bans, store, now)],
    edgeFactory,
    clusterCounters: () => sharedCounters?.status() ?? null,
    clusterEvents: () => clusterEvents?.clusterStatus() ?? null,
    bans,
    async close() {
      heapWatch.stop();
      vulndb.close();
      bans.close();
      await banStore.close();
      await sharedCounters?.close();
      await eventStore.close();
    },
  };
}

/** An edge service's methods, bound, so it can be extended by spreading (its methods may use `this`). */
function bound(edge: EdgeService): EdgeService {
  return { listen: edge.listen.bind(edge), close: edge.close.bind(edge), load: edge.load.bind(edge), ...(edge.switchCrs ? { switchCrs: edge.switchCrs.bind(edge) } : {}) };
}

/** Under heap pressure the WAF index gives room (lifecycle/heap-pressure.ts); said once when it has none left. */
function relieveHeapPressureWithIndex(eventStore: JsonlEventStore, logger: Logger): HeapPressureWatch {
  let exhaustedSaid = false;
  return watchHeapPressure((reading) => {
    const shrunk = eventStore.shrinkIndexMemory();
    const heap = { used_bytes: reading.usedBytes, limit_bytes: reading.limitBytes };
    if (shrunk) logger.warn({ ...heap, ...shrunk }, 'heap pressure: the WAF event index keeps less in memory (older events are read from its spill file)');
    else if (!exhaustedSaid) {
      exhaustedSaid = true;
      logger.error(heap, 'heap pressure: the WAF event index has no more memory to give; raise WAFCTL_DAEMON_HEAP_MIB or look for what grows');
    }
  });
}

// The map from key hash to site is rebuilt once per config snapshot, not per request.
const keyIndexes = new WeakMap<ConfigSnapshot, Map<string, StoredSite>>();
function keyIndex(snapshot: ConfigSnapshot): Map<string, StoredSite> {
  let index = keyIndexes.get(snapshot);
  if (!index) {
    index = new Map(snapshot.sites.filter((s) => s.key_hash !== null).map((s) => [s.key_hash!, s]));
    keyIndexes.set(snapshot, index);
  }
  return index;
}

// Read without following a link and only when no other user controls it; a new key is written
// fresh and renamed into place (safe-open.ts).
async function challengeSecret(file: string): Promise<Buffer> {
  const existing = await readTrustedFile(file);
  if (existing !== null && existing.length >= 32) return existing;
  const key = randomBytes(32);
  await replaceFile(file, key, 0o600);
  return key;
}

/**
 * A cluster node's challenge key: the cluster's (daemon/cluster/shared-secret.ts), kept in the
 * node's own file as the cache it starts from when PostgreSQL cannot be reached; then the node's
 * own key serves, and a visitor cleared by another node may be asked to solve the challenge again.
 */
async function clusterChallengeSecret(url: string, file: string, logger: Logger): Promise<Buffer> {
  const mine = await challengeSecret(file);
  try {
    const shared = await sharedSecret(url, 'challenge_key', mine);
    if (!shared.equals(mine)) {
      await replaceFile(file, shared, 0o600);
      logger.info('JS challenge: this node now uses the cluster\'s key (from PostgreSQL)');
    }
    return shared;
  } catch (error) {
    logger.warn({ err: error }, 'JS challenge: the cluster\'s key could not be read from PostgreSQL; this node uses its own cached key, so a visitor cleared by another node may be challenged again');
    return mine;
  }
}

function eventLogger(logger: Logger): EventLogger {
  return {
    info: (msg, fields) => logger.info(fields ?? {}, msg),
    warn: (msg, fields) => logger.warn(fields ?? {}, msg),
    error: (msg, fields) => logger.error(fields ?? {}, msg),
  };
}

/**
 * The country of an address stored as text ('' when unknown or not an address), for ingested
 * entries, which carry none. Loaded on first use: geoip-country reads its database when imported,
 * and a primary whose edge runs in workers has not loaded it.
 */
async function countryLookup(): Promise<(ip: string) => string> {
  const [{ countryOf }, { parseIp }] = await Promise.all([import('./proxy/checks/geo.js'), import('./proxy/ip-set.js')]);
  return (ip) => {
    const key = parseIp(ip);
    return key === null ? '' : countryOf(key);
  };
}
