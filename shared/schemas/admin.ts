import { ACME_STATES } from './acme.js';
import { z } from 'zod';
import { PLAN_TIERS } from '../plans.js';
import { AccountViewSchema, TokenViewSchema } from './account.js';
import { DomainSchema, OriginSchema } from './domain.js';
import { SiteSchema } from './site.js';

// Requests and answers of the admin socket (daemon/admin/ROUTES.md): the daemon validates bodies with
// these, shared/admin-client.ts parses answers with them.

const MAX_ALIASES = 100;

const AliasesSchema = z.array(DomainSchema).max(MAX_ALIASES, `must have at most ${MAX_ALIASES} entries`);

export const AddSiteBodySchema = z.object({
  domain: DomainSchema,
  origin: OriginSchema,
  aliases: AliasesSchema.default([]),
  plan: z.enum(PLAN_TIERS).default('free'),
}).strict();
export type AddSiteBody = z.input<typeof AddSiteBodySchema>;

export const UpdateSiteBodySchema = z.object({
  origin: OriginSchema.optional(),
  plan: z.enum(PLAN_TIERS).optional(),
  aliases: AliasesSchema.optional(),
}).strict().refine((b) => b.origin !== undefined || b.plan !== undefined || b.aliases !== undefined, {
  message: 'must set at least one of origin, plan, aliases',
});
export type UpdateSiteBody = z.input<typeof UpdateSiteBodySchema>;

export const SetAccountBodySchema = z.object({ api_access: z.boolean() }).strict();

export const CreateTokenBodySchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
}).strict();

export const TokenIdParamSchema = z.coerce.number().int().positive();

export const SiteWithKeySchema = z.object({ site: SiteSchema, api_key: z.string() });
export const ApiKeySchema = z.object({ api_key: z.string() });
export const CreatedTokenSchema = z.object({ id: z.number().int(), name: z.string(), token: z.string(), created_at: z.string() });
export const RevokedTokenSchema = z.object({ id: z.number().int(), revoked: z.literal(true) });

export const DemoInfoSchema = z.object({
  domain: z.string(),
  origin: z.string(),
  /** Ready-to-paste commands that reach the demo site through the edge. */
  try: z.array(z.string()),
});
export type DemoInfo = z.infer<typeof DemoInfoSchema>;

const Count = z.number().int().nonnegative();

/**
 * The edge's load since the daemon started, summed over its edge processes (worst_stall_ms: the
 * largest of them). With --workers N > 1 each worker reports once a second, so the figures may be
 * up to a second old; a worker that died keeps its last reported counts in the sums.
 */
export const EdgeLoadSchema = z.object({
  /** Requests being handled right now (head received, response not finished). */
  in_flight: Count,
  admitted: Count,
  /** Answered 503 because the in-flight bound (edge_max_in_flight) was reached. */
  shed_in_flight: Count,
  /** Answered 503 because they waited longer than edge_shed_loop_delay_ms on a stalled event loop. */
  shed_loop_delay: Count,
  /** Longest event-loop stall a request waited behind (0 while edge_shed_loop_delay_ms is 0). */
  worst_stall_ms: Count,
});
export type EdgeLoad = z.infer<typeof EdgeLoadSchema>;

/** A site's ACME certificate in `daemon status`: its state and when the served certificate expires. */
export const SiteCertificateSchema = z.object({
  site: z.string(),
  state: z.enum(ACME_STATES),
  not_after: z.string().nullable(),
  error: z.string().nullable(),
});
export type SiteCertificate = z.infer<typeof SiteCertificateSchema>;

/** A file the daemon keeps writing that refuses writes now (daemon/store/write-health.ts). */
export const WriteFailureSchema = z.object({
  failing_since: z.string(),
  /** The errno and what it means (`ENOSPC (disk full)`), or the error's message. */
  error: z.string(),
  /** The file or directory written. */
  path: z.string(),
  /** Failed writes since failing_since. */
  failed_writes: z.number().int(),
});
export type WriteFailure = z.infer<typeof WriteFailureSchema>;

/** The rate-limit counters of a cluster node (--cluster-redis, daemon/cluster/README.md). */
export const ClusterCountersSchema = z.object({
  backend: z.literal('redis'),
  /** The Redis URL without its password. */
  redis: z.string(),
  /** exact: counted in Redis; degraded: Redis unusable, counted on this node (or refused, failure_mode deny). */
  state: z.enum(['exact', 'degraded']),
  /** When the state last changed (the start when it never did). */
  since: z.string(),
  failure_mode: z.enum(['open', 'deny']),
  command_timeout_ms: z.number().int(),
  /** Calls to Redis that failed since the start, each answered on this node: every one may have
   *  been counted in Redis too. Absent from daemons before it was added. */
  failed_calls: z.number().int().default(0),
});
export type ClusterCounters = z.infer<typeof ClusterCountersSchema>;

/** The shared configuration of a cluster node (--cluster-postgres). */
export const ClusterConfigSchema = z.object({
  backend: z.literal('postgres'),
  /** Where PostgreSQL is, as the logs name it: user@host:port/database (never a password). */
  postgres: z.string(),
  /** The version of the configuration document this node runs. */
  version: z.number().int(),
  /** listening: NOTIFY brings changes at once; polling: the listener is down, a 5 s version poll
   *  brings them; unreachable: PostgreSQL cannot be reached, the node serves the last config. */
  state: z.enum(['listening', 'polling', 'unreachable']),
  since: z.string(),
});
export type ClusterConfig = z.infer<typeof ClusterConfigSchema>;

/** The shippers of this node's WAF events and access entries to PostgreSQL (--cluster-postgres). */
export const ClusterEventsSchema = z.object({
  backend: z.literal('postgres'),
  /** This node's key in the cluster (<data>/events/node-id). */
  node: z.string(),
  state: z.enum(['starting', 'shipping', 'unreachable', 'failing']),
  since: z.string(),
  /** Local id through which every WAF event of this node is in PostgreSQL. */
  shipped_through_id: z.number().int(),
  /** The highest local id of a WAF event in the spool: shipped_through_id reaches it when caught up
   *  (access entries share the id sequence and have a shipper of their own, `access`). */
  spool_last_id: z.number().int(),
  /** True when the shipper's last look found nothing left to ship. */
  caught_up: z.boolean(),
  /** WAF events this daemon process has put into PostgreSQL. */
  shipped_since_start: z.number().int(),
  /** The shipper of access entries (as hourly rollup deltas, for /analytics); absent from older daemons. */
  access: z.object({
    state: z.enum(['starting', 'shipping', 'unreachable', 'failing']),
    since: z.string(),
    shipped_through_id: z.number().int(),
    /** The highest local id of an access entry in the spool. */
    spool_last_id: z.number().int(),
    caught_up: z.boolean(),
    /** Access entries this daemon process has counted into PostgreSQL. */
    shipped_since_start: z.number().int(),
  }).optional(),
});
export type ClusterEvents = z.infer<typeof ClusterEventsSchema>;

export const DaemonStatusSchema = z.object({
  pid: z.number().int(),
  version: z.string(),
  started_at: z.string(),
  uptime_s: z.number(),
  data_dir: z.string(),
  ports: z.object({ edge: z.number().int(), edge_tls: z.number().int(), api: z.number().int() }),
  api_url: z.string(),
  ca_file: z.string().nullable(),
  admin_socket: z.string(),
  sites: z.number().int(),
  /** The Core Rule Set the edge runs: found only when rules that load are there. */
  crs: z.object({
    found: z.boolean(),
    dir: z.string(),
    /** The installed release (`wafctl crs`); null when the rules come from --crs-dir. Absent from older daemons. */
    version: z.string().nullable().optional(),
    source: z.enum(['installed', 'crs-dir']).optional(),
    /** The CRS plugins every site loads (the directory's own plugins/ and `wafctl crs plugin add`). Absent from older daemons. */
    plugins: z.array(z.string()).optional(),
  }),
  workers: z.number().int(),
  demo: DemoInfoSchema.nullable(),
  /** null: no proxy edge (a daemon built with another edge factory); absent from daemons before it was added. */
  edge: EdgeLoadSchema.nullable().default(null),
  /** Sites with `--tls acme` (absent from daemons before it was added). */
  certificates: z.array(SiteCertificateSchema).default([]),
  /** Background writes that fail now, null for each that works (absent from daemons before it was added). */
  write_failures: z.object({ events: WriteFailureSchema.nullable(), log: WriteFailureSchema.nullable() }).default({ events: null, log: null }),
  /** Cluster mode only (--cluster-postgres, --cluster-redis); null on a single node and from older daemons.
   *  counters: null when the node counts on its own (no --cluster-redis); config and events: null
   *  without --cluster-postgres (absent from daemons before they were added). */
  cluster: z.object({
    counters: ClusterCountersSchema.nullable(),
    config: ClusterConfigSchema.nullable().default(null),
    events: ClusterEventsSchema.nullable().default(null),
  }).nullable().default(null),
});
export type DaemonStatus = z.infer<typeof DaemonStatusSchema>;

/** The Core Rule Set the edge runs after a reload, and whether the reload switched it. */
export const CrsReloadedSchema = z.object({ found: z.boolean(), dir: z.string(), version: z.string().nullable(), plugins: z.array(z.string()), switched: z.boolean() });
export type CrsReloaded = z.infer<typeof CrsReloadedSchema>;
export const ReloadedSchema = z.object({
  reloaded: z.literal(true),
  /** Absent from older daemons. */
  crs: CrsReloadedSchema.optional(),
});
/** `POST /admin/crs/reload`: only the Core Rule Set and its plugins are read again. */
export const CrsReloadSchema = z.object({ crs: CrsReloadedSchema });
export const StoppingSchema = z.object({ stopping: z.literal(true) });

export { AccountViewSchema, SiteSchema, TokenViewSchema };
