// The event store of a cluster node (--cluster-postgres): the node's JSONL store stays the
// durable spool (every append lands there first, fsynced) and the shipper copies its WAF events
// to PostgreSQL; /waf-logs and its detail read PostgreSQL, so every node gives the same answer,
// and answer 503 store_unavailable while it cannot be reached (a partial answer from the local
// spool would look complete). Access rollups and /analytics are not shipped yet: analytics, top
// lists and retention of the spool stay local (daemon/cluster/README.md).
import pg from 'pg';
import type { Logger } from 'pino';
import { WafctlError } from '../../../shared/errors.js';
import type { NewWafEvent } from '../../../shared/schemas/events.js';
import type { ClusterEvents } from '../../../shared/schemas/admin.js';
import type { AnalyticsQuery, EventStore, EventStoreStats, WafLogQuery, WafLogResult } from '../../store/event-store.js';
import type { JsonlEventStore } from '../../store/events/jsonl-event-store.js';
import type { RequestEvents, RequestKey } from '../../store/events/request-lookup.js';
import type { TopListQuery } from '../../store/events/top-lists.js';
import { describePostgres } from '../postgres-target.js';
import { isUnreachable } from '../unreachable.js';
import { EventShipper } from './event-shipper.js';
import { ensureEventsSchema } from './events-schema.js';
import { nodeKey } from './node-identity.js';
import { schedulePartitionJob } from './partition-job.js';
import { searchWafLogsPg } from './pg-waf-search.js';
import { wafRequestPg } from './pg-waf-request.js';
import { WafSpoolReader } from './waf-spool-reader.js';
import { visibleFromMs } from './week-partitions.js';

export interface ClusterEventStoreOptions {
  url: string;
  local: JsonlEventStore;
  logger: Logger;
  retentionDays?: number;
  clock?: () => number;
  /** Shipper poll (tests make it short). */
  pollMs?: number;
}

const UNAVAILABLE = 'The shared event store (PostgreSQL) is unreachable; retry later.';

export async function openClusterEventStore(o: ClusterEventStoreOptions): Promise<ClusterEventStore> {
  const pool = (max: number, name: string): pg.Pool => {
    const p = new pg.Pool({ connectionString: o.url, application_name: `wafctl ${name} ${process.pid}`, max, connectionTimeoutMillis: 5_000, query_timeout: 30_000, idleTimeoutMillis: 30_000, keepAlive: true });
    p.on('error', (error) => o.logger.warn({ err: error, postgres: describePostgres(o.url) }, `cluster events: an idle PostgreSQL connection failed (${name})`));
    return p;
  };
  // Separate pools: searches cannot starve shipping, nor shipping the searches.
  return new ClusterEventStore(o, pool(1, 'shipper'), pool(4, 'events'), await nodeKey(o.local.spool().dir));
}

export class ClusterEventStore implements EventStore {
  readonly #local: JsonlEventStore;
  readonly #reads: pg.Pool;
  readonly #shipPool: pg.Pool;
  readonly #retentionDays: number;
  readonly #clock: () => number;
  readonly #logger: Logger;
  readonly shipper: EventShipper;
  readonly #stopJob: () => void;
  readonly #nodeKey: string;
  #schema: Promise<void> | null = null;

  constructor(o: ClusterEventStoreOptions, shipPool: pg.Pool, reads: pg.Pool, key: string) {
    this.#local = o.local;
    this.#reads = reads;
    this.#shipPool = shipPool;
    this.#retentionDays = o.retentionDays ?? 90;
    this.#clock = o.clock ?? Date.now;
    this.#logger = o.logger;
    this.#nodeKey = key;
    const ready = (): Promise<void> => this.#ready();
    this.shipper = new EventShipper({ pool: shipPool, reader: new WafSpoolReader(o.local.spool()), nodeKey: key, ready, logger: o.logger, retentionDays: this.#retentionDays, clock: this.#clock, pollMs: o.pollMs });
    this.shipper.start();
    this.#stopJob = schedulePartitionJob(reads, { retentionDays: this.#retentionDays, logger: o.logger, clock: this.#clock, ready });
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

  async searchWafLogs(query: WafLogQuery): Promise<WafLogResult> {
    try {
      await this.#ready();
      return await searchWafLogsPg(this.#reads, query, this.#visibleFrom());
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

  analytics(query: AnalyticsQuery): ReturnType<EventStore['analytics']> {
    return this.#local.analytics(query);
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
    return {
      backend: 'postgres', node: this.#nodeKey, state: s.health, since: new Date(s.healthSince).toISOString(),
      shipped_through_id: s.cursor, spool_last_id: this.#local.lastWafEventId(), caught_up: s.caughtUp, shipped_since_start: s.shipped,
    };
  }

  writeFailure(): ReturnType<NonNullable<EventStore['writeFailure']>> {
    return this.#local.writeFailure();
  }

  async close(): Promise<void> {
    this.#stopJob();
    await this.shipper.close();
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
