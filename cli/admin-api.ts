// What the CLI needs from the daemon's admin socket (daemon/admin/ROUTES.md), as an interface so
// commands can be tested with an in-memory fake and run for real over shared/admin-client.ts.
// Every method throws an error with a table `code` (shared/errors.ts) on failure; an absent daemon
// is `daemon_unreachable`.
import type { BotView, ProtectedPageView, RateLimitView, RulesView, SetRulesBody } from '../shared/schemas/site-settings.js';
import type { VulnDbImportResult, VulnDbStatus } from '../shared/schemas/vulndb.js';
import type { AutoBan, Ban, BanView } from '../shared/schemas/bans.js';
import type { ClusterConfig, ClusterCounters, ClusterEvents, CrsReloaded, EdgeLoad, SiteCertificate, WriteFailure } from '../shared/schemas/admin.js';
import type { AcmeView } from '../shared/schemas/acme.js';
import type { ExcludeEventBody, ExclusionRemoved, ExclusionResult } from '../shared/schemas/rule-exclusion.js';
export type { ExcludeEventBody, ExclusionRemoved, ExclusionResult };
export type { BotView, ProtectedPageView, RateLimitView, RulesView, SetRulesBody };
export type { AutoBan, Ban, BanView };

export interface SiteView {
  id: number;
  domain: string;
  aliases: string[];
  origin: string;
  plan: string;
  status: 'active' | 'inactive' | 'deleted';
  has_key: boolean;
  created_at: string;
  updated_at: string;
  /** Protection settings (`wafctl site set`); absent from older daemons. */
  settings?: SiteSettingsView;
}

export interface SiteSettingsView {
  mode: 'on' | 'detect' | 'off';
  paranoia: number;
  /** Absent from daemons older than this field. */
  detection_paranoia?: number;
  inbound_threshold: number;
  outbound_threshold: number;
  groups: { cms: boolean; crs: boolean };
  block_user_enumeration?: boolean;
  block_response: '403' | '404' | 'drop';
  on_engine_error: 'closed' | 'open';
  body_over_limit: 'reject' | 'pass';
  /** Absent from daemons older than the setting. */
  response_inspection?: 'on' | 'off';
  is_default: boolean;
  tls: 'site' | 'acme' | 'generated';
  /** Present when tls is 'acme'. */
  acme?: AcmeView;
}

export interface DaemonStatusView {
  pid: number;
  version: string;
  started_at: string;
  uptime_s: number;
  data_dir: string;
  ports: { edge: number; edge_tls: number; api: number };
  api_url: string;
  ca_file: string | null;
  admin_socket: string;
  sites: number;
  /** found only when rules that load are there; version null: from --crs-dir (absent from older daemons). */
  crs: { found: boolean; dir: string; version?: string | null; source?: 'installed' | 'crs-dir' };
  workers: number;
  demo?: { domain: string; origin: string; try: string[] } | null;
  /** Requests admitted and shed by the edge since the daemon started; null or absent: not reported. */
  edge?: EdgeLoad | null;
  /** Each ACME site's certificate state and expiry (absent from older daemons). */
  certificates?: SiteCertificate[];
  /** Background writes failing now (absent from older daemons). */
  write_failures?: { events: WriteFailure | null; log: WriteFailure | null };
  /** Cluster mode: the shared parts' state (null or absent: a single node, or an older daemon; config
   *  and events absent from daemons before they were added). */
  cluster?: { counters: ClusterCounters | null; config?: ClusterConfig | null; events?: ClusterEvents | null } | null;
}

export interface TokenListItem {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface AccountView {
  id: number;
  name: string;
  api_access: boolean;
}

export interface NewSite {
  domain: string;
  origin: string;
  aliases?: string[];
  plan?: string;
}

export interface SiteChanges {
  origin?: string;
  plan?: string;
  aliases?: string[];
  mode?: 'on' | 'detect' | 'off';
  paranoia?: number;
  /** null: the same as paranoia again. */
  detection_paranoia?: number | null;
  inbound_threshold?: number;
  outbound_threshold?: number;
  groups?: { cms?: boolean; crs?: boolean };
  block_user_enumeration?: boolean;
  block_response?: '403' | '404' | 'drop';
  on_engine_error?: 'closed' | 'open';
  body_over_limit?: 'reject' | 'pass';
  response_inspection?: 'on' | 'off';
  is_default?: boolean;
  /** PEM texts; null: back to the edge's generated certificate. */
  tls?: { cert: string; key: string } | null;
  /** Certificates over ACME (`--tls acme`); absent fields keep the site's current ones. */
  acme?: { directory?: string; email?: string | null };
}

export interface AdminApi {
  status(): Promise<DaemonStatusView>;
  reload(): Promise<{ reloaded: true; crs?: CrsReloaded }>;
  /** Re-reads only the Core Rule Set selection and installed plugins; resolves once the edge runs them. */
  reloadCrs(): Promise<{ crs: CrsReloaded }>;
  listSites(options?: { all?: boolean }): Promise<SiteView[]>;
  addSite(site: NewSite): Promise<{ site: SiteView; api_key: string }>;
  getSite(domain: string): Promise<SiteView>;
  updateSite(domain: string, changes: SiteChanges): Promise<SiteView>;
  disableSite(domain: string): Promise<SiteView>;
  enableSite(domain: string): Promise<SiteView>;
  deleteSite(domain: string): Promise<SiteView>;
  /** Generates the site's key, or replaces it (the old one stops working at once). */
  newSiteKey(domain: string): Promise<{ api_key: string }>;
  listRateLimits(domain: string): Promise<RateLimitView[]>;
  /** Answers the site's whole list after the change. */
  addRateLimit(domain: string, path: string, perMinute: number): Promise<RateLimitView[]>;
  removeRateLimit(domain: string, path: string): Promise<RateLimitView[]>;
  listProtectedPages(domain: string): Promise<ProtectedPageView[]>;
  addProtectedPage(domain: string, path: string, allow: string[]): Promise<ProtectedPageView[]>;
  removeProtectedPage(domain: string, path: string): Promise<ProtectedPageView[]>;
  /** The site's active bans (with `all`, also those that ended this week), newest first. */
  listBans(domain: string, all: boolean): Promise<BanView[]>;
  addBan(domain: string, ban: { ip: string; minutes?: number; reason?: string }): Promise<Ban>;
  /** Lifts the active bans of exactly that address or range; not_found when there was none. */
  removeBan(domain: string, ip: string): Promise<Ban[]>;
  getAutoBan(domain: string): Promise<AutoBan | null>;
  /** null turns it off. */
  setAutoBan(domain: string, setting: AutoBan | null): Promise<AutoBan | null>;
  getBot(domain: string): Promise<BotView>;
  setBot(domain: string, bot: { enabled: boolean; challenge?: 'js' | 'off'; challenge_exempt?: string[] }): Promise<BotView>;
  getRules(domain: string): Promise<RulesView>;
  /** User SecLang files (text + absolute path); null removes one. The daemon validates by loading. */
  setRules(domain: string, files: SetRulesBody): Promise<RulesView>;
  /** `rules exclude`: the exclusion for one stored request, its replay verdict, and whether it was applied. */
  excludeEvent(domain: string, body: ExcludeEventBody): Promise<ExclusionResult>;
  /** `rules exclude --remove`: takes the exclusion of that request (or event) out of the before file. */
  removeExclusion(domain: string, event: string): Promise<ExclusionRemoved>;
  getAccount(): Promise<AccountView>;
  setApiAccess(enabled: boolean): Promise<AccountView>;
  listTokens(): Promise<TokenListItem[]>;
  createToken(name: string): Promise<{ id: number; name: string; token: string; created_at: string }>;
  revokeToken(id: number): Promise<{ id: number; revoked: true }>;
  /** The vulnerability database; import errors carry their table codes (`truncated`, ...). */
  vulndbStatus(): Promise<VulnDbStatus>;
  /** Streams a local feed to the daemon; `label` is its absolute path, shown as the source. */
  vulndbImportUpload(chunks: AsyncIterable<Buffer | string>, label: string): Promise<VulnDbImportResult>;
  /** The daemon fetches the feed from an http(s) URL itself (`apiKey`: the v3 feed's Bearer key). */
  vulndbImportUrl(url: string, apiKey?: string): Promise<VulnDbImportResult>;
  /** One refresh from the daemon's configured URL now; the outcome is in `refresh.last_result`. */
  vulndbRefresh(): Promise<VulnDbStatus>;
}
