// The event store of a cluster node (--cluster-postgres): the node's JSONL store stays the
// durable spool (every append lands there first, fsynced) and two shippers copy it to PostgreSQL:
// WAF events as rows, access entries as hourly rollup deltas. /waf-logs, its detail and
// /analytics read PostgreSQL, so every node gives the same answer, and answer 503
// store_unavailable while it cannot be reached (a partial answer from the local spool would look
// complete). Top lists and the spool's retention stay local (daemon/cluster/README.md).
import pg from 'pg';
import type { Logger } from 'pino';
import { WafctlError } from '../../../shared/errors.js';
import type { Analytics, NewAccessEntry, NewWafEvent, StoredAccessEntry, StoredWafEvent } from '../../../shared/schemas/events.js';
import type { ClusterEvents } from '../../../shared/schemas/admin.js';
import type { AnalyticsQuery, EventStore, EventStoreStats, WafLogQuery, WafLogResult } from '../../store/event-store.js';
import type { JsonlEventStore } from '../../store/events/jsonl-event-store.js';
import type { RequestEvents, RequestKey } from '../../store/events/request-lookup.js';
import type { TopListQuery } from '../../store/events/top-lists.js';
import { checkAnalyticsQuery } from '../../store/events/analytics-query.js';
import { describePostgres } from '../postgres-target.js';
import { isUnreachable } from '../unreachable.js';
import { scheduleAccessCompaction } from './access-compactor.js';
import { EventShipper } from './event-shipper.js';
import { ensureEventsSchema } from './events-schema.js';
import { nodeKey } from './node-identity.js';
import { schedulePartitionJob } from './partition-job.js';
import { analyticsPg } from './pg-analytics.js';
import { searchWafLogsPg } from './pg-waf-search.js';
import { wafRequestPg } from './pg-waf-request.js';
import { shipAccessBatch } from './ship-access-batch.js';
import { KnownWeeks, shipBatch } from './ship-batch.js';
import { ACCESS_SPOOL, SpoolReader, WAF_SPOOL } from './spool-reader.js';
import { watchSpool } from './spool-watch.js';
import { visibleFromMs } from './week-partitions.js';

export interface ClusterEventStoreOptions {
  url: string;
  local: JsonlEventStore;
  logger: Logger;
  retentionDays?: number;
  clock?: () => number;
  /** Shipper poll (tests make it short). */
  pollMs?: number;
  /** How often the access compactor runs (tests make it short). */
  compactEveryMs?: number;
  /** The bound of a /waf-logs search (pg-waf-search.ts SEARCH_TIMEOUT_MS; tests make it short). */
  searchTimeoutMs?: number;
}

/** Access entries per shipped batch: the edge's entries ship on the poll, a second's worth at a time. */
const ACCESS_BATCH = 20_000;

const UNAVAILABLE = 'The shared event store (PostgreSQL) is unreachable; retry later.';

export async function openClusterEventStore(o: ClusterEventStoreOptions): Promise<ClusterEventStore> {
  const pool = (max: number, name: string): pg.Pool => {
    const p = new pg.Pool({ connectionString: o.url, application_name: `wafctl ${name} ${process.pid}`, max, connectionTimeoutMillis: 5_000, query_timeout: 30_000, idleTimeoutMillis: 30_000, keepAlive: true });
    p.on('error', (error) => o.logger.warn({ err: error, postgres: describePostgres(o.url) }, `cluster events: an idle PostgreSQL connection failed (${name})`));
    return p;
  };
  // Separate pools: searches cannot starve shipping, nor shipping the searches (one connection per shipper).
  return new ClusterEventStore(o, pool(2, 'shipper'), pool(4, 'events'), await nodeKey(o.local.spool().dir));
}

export class ClusterEventStore implements EventStore {
  readonly #local: JsonlEventStore;
  readonly #reads: pg.Pool;
  readonly #shipPool: pg.Pool;
  readonly #retentionDays: number;
  readonly #clock: () => number;
  readonly #logger: Logger;
  readonly shipper: EventShipper<StoredWafEvent>;
  readonly accessShipper: EventShipper<StoredAccessEntry>;
  readonly #stopJobs: (() => void | Promise<void>)[];
  readonly #nodeKey: string;
  readonly #searchTimeoutMs: number | undefined;
  #schema: Promise<void> | null = null;

  constructor(o: ClusterEventStoreOptions, shipPool: pg.Pool, reads: pg.Pool, key: string) {
    this.#local = o.local;
    this.#reads = reads;
    this.#shipPool = shipPool;
    this.#retentionDays = o.retentionDays ?? 90;
    this.#clock = o.clock ?? Date.now;
    this.#logger = o.logger;
    this.#nodeKey = key;
    this.#searchTimeoutMs = o.searchTimeoutMs;
    const ready = (): Promise<void> => this.#ready();
    const common = { pool: shipPool, nodeKey: key, ready, logger: o.logger, retentionDays: this.#retentionDays, clock: this.#clock, pollMs: o.pollMs };
    const known = new KnownWeeks();
    this.shipper = new EventShipper({
      ...common, kind: 'waf', label: 'WAF events', reader: new SpoolReader(o.local.spool(), WAF_SPOOL),
      ship: (pool, nodeId, events, through, visibleFrom) => shipBatch(pool, nodeId, events, through, visibleFrom, known),
    });
    // Woken only by ingestion: the edge's entries go on the poll, so a busy node adds about one
    // delta per site and hour a second, however many requests it answers.
    this.accessShipper = new EventShipper({ ...common, kind: 'access', label: 'access entries', reader: new SpoolReader(o.local.spool(), ACCESS_SPOOL), ship: shipAccessBatch, batchSize: ACCESS_BATCH });
    this.shipper.start();
    this.accessShipper.start();
    this.#stopJobs = [
      schedulePartitionJob(reads, { retentionDays: this.#retentionDays, logger: o.logger, clock: this.#clock, ready }),
      scheduleAccessCompaction(reads, { logger: o.logger, ready, everyMs: o.compactEveryMs }),
      watchSpool({
        dir: o.local.spool().dir, logger: o.logger,
        behind: () => o.local.lastWafEventId() > this.shipper.cursor || o.local.lastAccessEntryId() > this.accessShipper.cursor,
      }).stop,
    ];
  }

  /** The tables, created once per process; a failure (PostgreSQL down) is tried again by the next caller. */
  #ready(): Promise<void> {
    this.#schema ??= ensureEventsSchema(this.#reads).then(
      (report) => { if (!report.trigram) this.#logger.warn('waf_events: pg_trgm unavailable, URI searches scan every row of the site'); },
      (error: unknown) => { this.#schema = null; throw error; },
    );
    return this.#schema;
  }

  async appendWafEvents(events: readonly NewWafEvent[]): Promise<number[]> {
    const ids = await this.#local.appendWafEvents(events);
    this.shipper.wake();
    return ids;
  }

  /**
   * Ingestion in cluster mode: answered only once the events are in PostgreSQL. Refused at once
   * (nothing stored) while the shipper knows PostgreSQL is unreachable; when it fails after the
   * local append, the events stay in the spool and ship later, and the caller answers 503.
   */
  async appendWafEventsShipped(events: readonly NewWafEvent[]): Promise<number[]> {
    if (this.shipper.health === 'unreachable') throw new WafctlError('store_unavailable', UNAVAILABLE);
    const ids = await this.appendWafEvents(events);
    if (ids.length === 0) return ids;
    try {
      await this.shipper.whenShipped(Math.max(...ids));
    } catch (error) {
      throw this.#translate(error);
    }
    return ids;
  }

  appendAccessEntries: EventStore['appendAccessEntries'] = (entries) => this.#local.appendAccessEntries(entries);

  /** Ingestion of access entries: answered once their deltas are in PostgreSQL, as for WAF events. */
  async appendAccessEntriesShipped(entries: readonly NewAccessEntry[]): Promise<number[]> {
    if (this.accessShipper.health === 'unreachable') throw new WafctlError('store_unavailable', UNAVAILABLE);
    const ids = await this.appendAccessEntries(entries);
    if (ids.length === 0) return ids;
    try {
      await this.accessShipper.whenShipped(Math.max(...ids));
    } catch (error) {
      throw this.#translate(error);
    }
    return ids;
  }

  async searchWafLogs(query: WafLogQuery): Promise<WafLogResult> {
    try {
      await this.#ready();
      return await searchWafLogsPg(this.#reads, query, this.#visibleFrom(), this.#searchTimeoutMs);
    } catch (error) {
      throw this.#translate(error);
    }
  }

  async wafRequest(siteId: number, key: RequestKey): Promise<RequestEvents> {
    try {
      await this.#ready();
      return await wafRequestPg(this.#reads, siteId, key, this.#visibleFrom());
    } catch (error) {
      throw this.#translate(error);
    }
  }

  async analytics(query: AnalyticsQuery): Promise<Analytics> {
    const q = checkAnalyticsQuery(query, this.#clock);
    try {
      await this.#ready();
      return await analyticsPg(this.#reads, q.site_id, q.period, q.now);
    } catch (error) {
      throw this.#translate(error);
    }
  }

  topList(query: TopListQuery): ReturnType<EventStore['topList']> {
    return this.#local.topList(query);
  }

  applyRetention(now?: number): ReturnType<EventStore['applyRetention']> {
    return this.#local.applyRetention(now);
  }

  stats(): EventStoreStats {
    return this.#local.stats();
  }

  /** The shipper as `daemon status` and `cluster status` show it. */
  clusterStatus(): ClusterEvents {
    const s = this.shipper;
    const a = this.accessShipper;
    return {
      backend: 'postgres', node: this.#nodeKey, state: s.health, since: new Date(s.healthSince).toISOString(),
      shipped_through_id: s.cursor, spool_last_id: this.#local.lastWafEventId(), caught_up: s.caughtUp, shipped_since_start: s.shipped,
      access: {
        state: a.health, since: new Date(a.healthSince).toISOString(), shipped_through_id: a.cursor,
        spool_last_id: this.#local.lastAccessEntryId(), caught_up: a.caughtUp, shipped_since_start: a.shipped,
      },
    };
  }

  writeFailure(): ReturnType<NonNullable<EventStore['writeFailure']>> {
    return this.#local.writeFailure();
  }

  async close(): Promise<void> {
    await Promise.all(this.#stopJobs.map((stop) => stop()));
    await Promise.all([this.shipper.close(), this.accessShipper.close()]);
    await this.#local.close();
    await Promise.all([this.#reads.end(), this.#shipPool.end()]).catch(() => undefined);
  }

  #visibleFrom(): number {
    return visibleFromMs(this.#clock(), this.#retentionDays);
  }

  #translate(error: unknown): unknown {
    if (isUnreachable(error)) return new WafctlError('store_unavailable', UNAVAILABLE);
    return error;
  }
}
