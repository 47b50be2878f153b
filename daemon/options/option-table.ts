import { availableParallelism } from 'node:os';

// Every daemon setting, once: its flag, its WAFCTL_* variable, its key in <data>/daemon.json, its kind
// and default. Precedence is flags > env > daemon.json > defaults (DESIGN.md section 1). Adding a
// setting is adding a row here and a field to DaemonOptions.

export type OptionKind = 'port' | 'count' | 'rate' | 'path' | 'url' | 'bool' | 'host' | 'cidrs';

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
  { key: 'listenHost', flag: 'listen-host', env: 'WAFCTL_LISTEN_HOST', file: 'listen_host', kind: 'host', fallback: () => '127.0.0.1', help: 'address the edge and API listeners bind' },
];

/** Settings a running daemon cannot change on reload (listeners and files are bound at start). */
export const RESTART_ONLY: ReadonlySet<SettableKey> = new Set([
  'edgePort', 'edgeTlsPort', 'apiPort', 'adminSocket', 'workers', 'vulndbRefreshUrl', 'vulndbRefreshHours', 'demo', 'demoPort', 'foreground', 'tlsCert', 'tlsKey', 'listenHost', 'auditLog', 'crsDir', 'trustedProxies',
]);
