import { availableParallelism } from 'node:os';

// Every daemon setting, once: its flag, its WAFCTL_* variable, its key in <data>/daemon.json, its kind
// and default. Precedence is flags > env > daemon.json > defaults (DESIGN.md section 1). Adding a
// setting is adding a row here and a field to DaemonOptions.

/** millis: a duration in ms (1 ms-24 h); bytes: a size (1 byte-1 TiB); limit: a whole number where 0 means "off". */
/** counter-failure: what a node does with counted requests while Redis is unusable (open or deny). */
export type OptionKind = 'port' | 'count' | 'rate' | 'path' | 'url' | 'postgres-url' | 'redis-url' | 'counter-failure' | 'bool' | 'host' | 'cidrs' | 'millis' | 'bytes' | 'limit';

export interface DaemonOptions {
  dataDir: string;
  edgePort: number;
  edgeTlsPort: number;
  apiPort: number;
  adminSocket: string;
  crsDir: string;
  auditLog: string | null;
  workers: number;
  demo: boolean;
  demoPort: number;
  foreground: boolean;
  tlsCert: string | null;
  tlsKey: string | null;
  /** Address the edge and API listeners bind; loopback by default, set 0.0.0.0 or :: to serve a network. */
  listenHost: string;
  /** Peers whose X-Forwarded-For is believed (canonical IP or CIDR); none by default. */
  trustedProxies: string[];
  /** Ingestion requests per minute per token and endpoint (spec section 8: 100). */
  ingestRateLimit: number;
  /** Where the vulnerability feed is fetched from on an interval; null: only `wafctl vulndb import`. */
  vulndbRefreshUrl: string | null;
  /** Hours between two fetches of vulndbRefreshUrl. */
  vulndbRefreshHours: number;
  /** Edge hardening (daemon/proxy/hardening/edge-limits.ts, SECURITY.md): request head limits, slow clients, shedding. */
  edgeHeaderTimeoutMs: number;
  edgeBodyIdleTimeoutMs: number;
  edgeTunnelIdleTimeoutMs: number;
  edgeMaxUriBytes: number;
  edgeMaxHeaderBytes: number;
  edgeMaxHeaders: number;
  /** Largest request body the WAF inspects (CRS's SecRequestBodyLimit); larger ones follow the site's body_over_limit. */
  edgeMaxBodyBytes: number;
  /** Per edge worker; 0: unbounded. */
  edgeMaxInFlight: number;
  /** 0: no shedding on event-loop delay. */
  edgeShedLoopDelayMs: number;
  /** Per edge listener and worker; 0: unbounded. */
  edgeMaxConnections: number;
  /** Wall-clock ms the WAF engine may spend on one request (daemon/engine/budget/); past it the site's
   *  waf.onError decides. 0: no budget. */
  wafTimeBudgetMs: number;
  /** Days before its expiry an ACME certificate is renewed (certbot's renew_before_expiry). */
  acmeRenewBeforeDays: number;
  /** How often the ACME renewal timer looks for certificates due (and retries failed orders). */
  acmeCheckEveryMs: number;
  /** Memory of the WAF event index kept resident; older sealed chunks go to a spill file (daemon/store/events/chunk-spill.ts). */
  eventsIndexMemoryBytes: number;
  /** Cluster mode: the config document lives in this PostgreSQL database, shared by every node
   *  (daemon/cluster/README.md); null: a single node with <data>/config.json. */
  clusterPostgres: string | null;
  /** Cluster mode: rate-limit counters (edge, API, ingestion) live in this Redis, shared by every
   *  node (daemon/cluster/README.md); null: each node counts on its own. */
  clusterRedis: string | null;
  /** While Redis is unusable: 'open' counts on the node (at most (N+1)·L per key and window),
   *  'deny' answers counted requests 429. */
  clusterCounterFailure: 'open' | 'deny';
}

/** Settings a file or variable may set: everything except where the data dir itself is. */
export type SettableKey = Exclude<keyof DaemonOptions, 'dataDir'>;

export interface OptionRow {
  key: SettableKey;
  flag: string;
  env: string;
  file: string;
  kind: OptionKind;
  /** null: no default (the setting is off), or computed from the data dir. */
  fallback: (dataDir: string) => string | number | boolean | string[] | null;
  help: string;
}

export const OPTION_ROWS: readonly OptionRow[] = [
  { key: 'edgePort', flag: 'edge-port', env: 'WAFCTL_EDGE_PORT', file: 'edge_port', kind: 'port', fallback: () => 8080, help: 'edge HTTP port' },
  { key: 'edgeTlsPort', flag: 'edge-tls-port', env: 'WAFCTL_EDGE_TLS_PORT', file: 'edge_tls_port', kind: 'port', fallback: () => 8443, help: 'edge HTTPS port' },
  { key: 'apiPort', flag: 'api-port', env: 'WAFCTL_API_PORT', file: 'api_port', kind: 'port', fallback: () => 9443, help: 'management and ingestion API port (HTTPS)' },
  { key: 'adminSocket', flag: 'admin-socket', env: 'WAFCTL_ADMIN_SOCKET', file: 'admin_socket', kind: 'path', fallback: (d) => `${d}/wafctl.sock`, help: 'admin unix socket path' },
  { key: 'crsDir', flag: 'crs-dir', env: 'WAFCTL_CRS_DIR', file: 'crs_dir', kind: 'path', fallback: () => '/usr/share/modsecurity-crs', help: 'OWASP Core Rule Set directory (rules/ under it)' },
  { key: 'auditLog', flag: 'audit-log', env: 'WAFCTL_AUDIT_LOG', file: 'audit_log', kind: 'path', fallback: () => null, help: 'audit log file (one JSON object a line)' },
  { key: 'workers', flag: 'workers', env: 'WAFCTL_WORKERS', file: 'workers', kind: 'count', fallback: () => availableParallelism(), help: 'edge worker processes' },
  { key: 'demo', flag: 'demo', env: 'WAFCTL_DEMO', file: 'demo', kind: 'bool', fallback: () => false, help: 'start the demo origin and site demo.localhost' },
  { key: 'demoPort', flag: 'demo-port', env: 'WAFCTL_DEMO_PORT', file: 'demo_port', kind: 'port', fallback: () => 0, help: 'demo origin port (0: any free port)' },
  { key: 'foreground', flag: 'foreground', env: 'WAFCTL_FOREGROUND', file: 'foreground', kind: 'bool', fallback: () => false, help: 'stay attached (systemd, containers)' },
  { key: 'tlsCert', flag: 'tls-cert', env: 'WAFCTL_TLS_CERT', file: 'tls_cert', kind: 'path', fallback: () => null, help: 'API certificate (PEM) instead of the generated one' },
  { key: 'tlsKey', flag: 'tls-key', env: 'WAFCTL_TLS_KEY', file: 'tls_key', kind: 'path', fallback: () => null, help: 'API private key (PEM) for --tls-cert' },
  { key: 'trustedProxies', flag: 'trusted-proxy', env: 'WAFCTL_TRUSTED_PROXIES', file: 'trusted_proxies', kind: 'cidrs', fallback: () => [], help: 'trusted proxy IP or CIDR (repeatable; env: comma-separated)' },
  { key: 'ingestRateLimit', flag: 'ingest-rate-limit', env: 'WAFCTL_INGEST_RATE_LIMIT', file: 'ingest_rate_limit', kind: 'rate', fallback: () => 100, help: 'ingestion requests per minute per token and endpoint' },
  { key: 'vulndbRefreshUrl', flag: 'vulndb-refresh-url', env: 'WAFCTL_VULNDB_REFRESH_URL', file: 'vulndb_refresh_url', kind: 'url', fallback: () => null, help: 'vulnerability feed URL to re-import on an interval' },
  { key: 'vulndbRefreshHours', flag: 'vulndb-refresh-hours', env: 'WAFCTL_VULNDB_REFRESH_HOURS', file: 'vulndb_refresh_hours', kind: 'count', fallback: () => 24, help: 'hours between two vulnerability feed refreshes' },
  { key: 'edgeHeaderTimeoutMs', flag: 'edge-header-timeout-ms', env: 'WAFCTL_EDGE_HEADER_TIMEOUT_MS', file: 'edge_header_timeout_ms', kind: 'millis', fallback: () => 20_000, help: 'a request head must arrive within this many ms (408, slowloris)' },
  { key: 'edgeBodyIdleTimeoutMs', flag: 'edge-body-idle-timeout-ms', env: 'WAFCTL_EDGE_BODY_IDLE_TIMEOUT_MS', file: 'edge_body_idle_timeout_ms', kind: 'millis', fallback: () => 60_000, help: 'a request body idle this many ms is cut (408)' },
  { key: 'edgeTunnelIdleTimeoutMs', flag: 'edge-tunnel-idle-timeout-ms', env: 'WAFCTL_EDGE_TUNNEL_IDLE_TIMEOUT_MS', file: 'edge_tunnel_idle_timeout_ms', kind: 'millis', fallback: () => 60_000, help: 'an upgraded (WebSocket) connection idle this many ms either way is closed' },
  { key: 'edgeMaxUriBytes', flag: 'edge-max-uri-bytes', env: 'WAFCTL_EDGE_MAX_URI_BYTES', file: 'edge_max_uri_bytes', kind: 'bytes', fallback: () => 8192, help: 'longest request target (414)' },
  { key: 'edgeMaxHeaderBytes', flag: 'edge-max-header-bytes', env: 'WAFCTL_EDGE_MAX_HEADER_BYTES', file: 'edge_max_header_bytes', kind: 'bytes', fallback: () => 32_768, help: 'largest request header fields in total (431)' },
  { key: 'edgeMaxHeaders', flag: 'edge-max-headers', env: 'WAFCTL_EDGE_MAX_HEADERS', file: 'edge_max_headers', kind: 'count', fallback: () => 100, help: 'most request header fields (431)' },
  { key: 'edgeMaxBodyBytes', flag: 'edge-max-body-bytes', env: 'WAFCTL_EDGE_MAX_BODY_BYTES', file: 'edge_max_body_bytes', kind: 'bytes', fallback: () => 13 * 1024 * 1024, help: 'largest request body the WAF inspects (larger: the site\'s body_over_limit)' },
  { key: 'edgeMaxInFlight', flag: 'edge-max-in-flight', env: 'WAFCTL_EDGE_MAX_IN_FLIGHT', file: 'edge_max_in_flight', kind: 'limit', fallback: () => 1024, help: 'requests one edge worker handles at once, more get 503 (0: unbounded)' },
  { key: 'edgeShedLoopDelayMs', flag: 'edge-shed-loop-delay-ms', env: 'WAFCTL_EDGE_SHED_LOOP_DELAY_MS', file: 'edge_shed_loop_delay_ms', kind: 'limit', fallback: () => 500, help: 'shed with 503 requests that waited longer than this on a stalled event loop (0: off)' },
  { key: 'edgeMaxConnections', flag: 'edge-max-connections', env: 'WAFCTL_EDGE_MAX_CONNECTIONS', file: 'edge_max_connections', kind: 'limit', fallback: () => 20_000, help: 'open client connections per edge listener and worker (0: unbounded)' },
  { key: 'wafTimeBudgetMs', flag: 'waf-time-budget-ms', env: 'WAFCTL_WAF_TIME_BUDGET_MS', file: 'waf_time_budget_ms', kind: 'limit', fallback: () => 40, help: 'wall-clock ms the WAF engine may spend on one request; past it the site\'s on_engine_error applies (0: off)' },
  { key: 'eventsIndexMemoryBytes', flag: 'events-index-memory-bytes', env: 'WAFCTL_EVENTS_INDEX_MEMORY_BYTES', file: 'events_index_memory_bytes', kind: 'bytes', fallback: () => 64 * 1024 * 1024, help: 'WAF event index memory; beyond it the oldest parts are read from a spill file (halved under heap pressure)' },
  { key: 'acmeRenewBeforeDays', flag: 'acme-renew-before-days', env: 'WAFCTL_ACME_RENEW_BEFORE_DAYS', file: 'acme_renew_before_days', kind: 'count', fallback: () => 30, help: 'renew an ACME certificate this many days before it expires' },
  { key: 'acmeCheckEveryMs', flag: 'acme-check-every-ms', env: 'WAFCTL_ACME_CHECK_EVERY_MS', file: 'acme_check_every_ms', kind: 'millis', fallback: () => 12 * 3_600_000, help: 'how often ACME certificates are checked for renewal (and failed orders retried)' },
  { key: 'clusterPostgres', flag: 'cluster-postgres', env: 'WAFCTL_CLUSTER_POSTGRES', file: 'cluster_postgres', kind: 'postgres-url', fallback: () => null, help: 'PostgreSQL URL of the cluster\'s shared config (postgres://user@host:port/db); every node of a cluster gets the same' },
  { key: 'clusterRedis', flag: 'cluster-redis', env: 'WAFCTL_CLUSTER_REDIS', file: 'cluster_redis', kind: 'redis-url', fallback: () => null, help: 'Redis URL of the cluster\'s shared rate-limit counters (redis://host:port[/db]); every node of a cluster gets the same' },
  { key: 'clusterCounterFailure', flag: 'cluster-counter-failure', env: 'WAFCTL_CLUSTER_COUNTER_FAILURE', file: 'cluster_counter_failure', kind: 'counter-failure', fallback: () => 'open', help: 'while the cluster\'s Redis is unusable: open (count on this node) or deny (answer counted requests 429)' },
  { key: 'listenHost', flag: 'listen-host', env: 'WAFCTL_LISTEN_HOST', file: 'listen_host', kind: 'host', fallback: () => '127.0.0.1', help: 'address the edge and API listeners bind' },
];

/** Settings a running daemon cannot change on reload (listeners and files are bound at start). */
export const RESTART_ONLY: ReadonlySet<SettableKey> = new Set([
  'edgePort', 'edgeTlsPort', 'apiPort', 'adminSocket', 'workers', 'vulndbRefreshUrl', 'vulndbRefreshHours', 'demo', 'demoPort', 'foreground', 'tlsCert', 'tlsKey', 'listenHost', 'auditLog', 'crsDir', 'trustedProxies',
  'edgeHeaderTimeoutMs', 'edgeBodyIdleTimeoutMs', 'edgeTunnelIdleTimeoutMs', 'edgeMaxUriBytes', 'edgeMaxHeaderBytes', 'edgeMaxHeaders', 'edgeMaxBodyBytes',
  'edgeMaxInFlight', 'edgeShedLoopDelayMs', 'edgeMaxConnections', 'wafTimeBudgetMs', 'eventsIndexMemoryBytes',
  'acmeRenewBeforeDays', 'acmeCheckEveryMs', 'clusterPostgres', 'clusterRedis', 'clusterCounterFailure',
]);
