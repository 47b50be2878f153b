// In-memory stand-ins for the daemon, for unit tests of the commands only. The real thing is
// exercised by test/cli/process.test.ts and test/e2e/.
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../shared/api-client/index.js';
import { ProfileStore } from '../../shared/profile.js';
import type { AdminApi, AutoBan, Ban, BanView, BotView, DaemonStatusView, NewSite, ProtectedPageView, RateLimitView, RulesView, SetRulesBody, SiteChanges, SiteView, TokenListItem } from '../../cli/admin-api.js';
import type { CommandDeps } from '../../cli/context.js';
import type { DaemonControl, StartResult, StopResult } from '../../cli/daemon-control.js';
import { recordingIo, type RecordingIo } from '../../cli/io.js';
import { crsReleases } from '../../cli/crs-releases.js';
import type { RefreshStatus, VulnDbImportResult, VulnDbStatus } from '../../shared/schemas/vulndb.js';

export class CodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const STATUS: DaemonStatusView = {
  pid: 4242,
  version: '0.1.0',
  started_at: '2026-11-22T05:00:00.000Z',
  uptime_s: 3725,
  data_dir: '/tmp/data',
  ports: { edge: 8080, edge_tls: 8443, api: 9443 },
  api_url: 'https://127.0.0.1:9443',
  ca_file: '/tmp/data/tls/ca.crt',
  admin_socket: '/tmp/data/wafctl.sock',
  sites: 0,
  crs: { found: true, dir: '/usr/share/modsecurity-crs/rules' },
  workers: 1,
  demo: null,
};

export class FakeAdmin implements AdminApi {
  running = true;
  sites: SiteView[] = [];
  tokens: Array<TokenListItem & { token: string }> = [];
  apiAccess = false;
  /** The vulnerability database as `vulndb status` would show it. */
  vulndb: VulnDbStatus = { loaded: false };
  vulndbImports: Array<{ kind: 'upload'; label: string; text: string } | { kind: 'url'; url: string; apiKey?: string }> = [];
  /** When set, imports fail with it and the database stays as it was (like the daemon). */
  vulndbImportFailure?: CodedError;
  /** The daemon's refresh setting; undefined: none configured. */
  vulndbRefreshSetting?: RefreshStatus;
  private keyCounter = 0;

  private check(): void {
    if (!this.running) throw new CodedError('daemon_unreachable', 'no daemon at /tmp/data/wafctl.sock');
  }
  private find(domain: string): SiteView {
    const site = this.sites.find((s) => s.domain === domain);
    if (!site) throw new CodedError('not_found', `no site ${domain}`);
    return site;
  }
  private key(): string {
    return String(++this.keyCounter).padStart(64, 'k');
  }
  async status() {
    this.check();
    return { ...STATUS, sites: this.sites.length };
  }
  async reload() {
    this.check();
    return { reloaded: true as const };
  }
  async reloadCrs() {
    this.check();
    return { crs: { found: true, dir: '/usr/share/modsecurity-crs', version: null, plugins: [], switched: false } };
  }
  async listSites(options: { all?: boolean } = {}) {
    this.check();
    return this.sites.filter((s) => options.all || s.status !== 'deleted');
  }
  async addSite(site: NewSite) {
    this.check();
    if (this.sites.some((s) => s.domain === site.domain)) throw new CodedError('duplicate', `site ${site.domain} already exists`);
    const added: SiteView = {
      id: this.sites.length + 1,
      domain: site.domain,
      aliases: site.aliases ?? [],
      origin: site.origin,
      plan: site.plan ?? 'free',
      status: 'active',
      has_key: true,
      created_at: '2026-11-22T05:00:00.000Z',
      updated_at: '2026-11-22T05:00:00.000Z',
    };
    this.sites.push(added);
    return { site: added, api_key: this.key() };
  }
  async getSite(domain: string) {
    this.check();
    return this.find(domain);
  }
  async updateSite(domain: string, changes: SiteChanges) {
    this.check();
    return Object.assign(this.find(domain), changes);
  }
  async disableSite(domain: string) {
    return Object.assign(await this.getSite(domain), { status: 'inactive' as const });
  }
  async enableSite(domain: string) {
    return Object.assign(await this.getSite(domain), { status: 'active' as const });
  }
  async deleteSite(domain: string) {
    return Object.assign(await this.getSite(domain), { status: 'deleted' as const });
  }
  async newSiteKey(domain: string) {
    Object.assign(await this.getSite(domain), { has_key: true });
    return { api_key: this.key() };
  }
  // Protection settings: plain lists per domain, no validation (the daemon's is tested in test/daemon/admin).
  rateLimits = new Map<string, RateLimitView[]>();
  pages = new Map<string, ProtectedPageView[]>();
  bots = new Map<string, BotView>();
  rulesSet: Array<{ domain: string; files: SetRulesBody }> = [];
  async listRateLimits(domain: string) {
    this.find(domain);
    return this.rateLimits.get(domain) ?? [];
  }
  async addRateLimit(domain: string, path: string, perMinute: number) {
    const list = [...(await this.listRateLimits(domain)), { path, per_minute: perMinute }];
    this.rateLimits.set(domain, list);
    return list;
  }
  async removeRateLimit(domain: string, path: string) {
    const list = await this.listRateLimits(domain);
    if (!list.some((r) => r.path === path)) throw new CodedError('not_found', `${path} has no rate limit on ${domain}`);
    this.rateLimits.set(domain, list.filter((r) => r.path !== path));
    return this.rateLimits.get(domain)!;
  }
  bans = new Map<string, BanView[]>();
  autoBans = new Map<string, AutoBan | null>();
  async listBans(domain: string, all: boolean) {
    this.find(domain);
    return (this.bans.get(domain) ?? []).filter((b) => all || b.state === 'active');
  }
  async addBan(domain: string, ban: { ip: string; minutes?: number; reason?: string }) {
    const site = this.find(domain);
    const at = Date.parse('2026-11-28T10:00:00.000Z');
    const made: Ban = {
      id: `ban-${(this.bans.get(domain)?.length ?? 0) + 1}`, site_id: site.id, ip: ban.ip, reason: ban.reason ?? '', source: 'manual', node: 'fake',
      created_at: new Date(at).toISOString(), expires_at: new Date(at + (ban.minutes ?? 60) * 60_000).toISOString(), revoked_at: null,
    };
    this.bans.set(domain, [...(this.bans.get(domain) ?? []), { ...made, state: 'active' }]);
    return made;
  }
  async removeBan(domain: string, ip: string) {
    const list = await this.listBans(domain, true);
    const lifted = list.filter((b) => b.ip === ip && b.state === 'active');
    if (lifted.length === 0) throw new CodedError('not_found', `${ip} has no active ban on ${domain}`);
    this.bans.set(domain, list.map((b) => (lifted.includes(b) ? { ...b, state: 'revoked' as const, revoked_at: '2026-11-28T10:05:00.000Z' } : b)));
    return lifted.map(({ state: _state, ...b }) => ({ ...b, revoked_at: '2026-11-28T10:05:00.000Z' }));
  }
  async getAutoBan(domain: string) {
    this.find(domain);
    return this.autoBans.get(domain) ?? null;
  }
  async setAutoBan(domain: string, setting: AutoBan | null) {
    this.find(domain);
    this.autoBans.set(domain, setting);
    return setting;
  }
  async listProtectedPages(domain: string) {
    this.find(domain);
    return this.pages.get(domain) ?? [];
  }
  async addProtectedPage(domain: string, path: string, allow: string[]) {
    const list = [...(await this.listProtectedPages(domain)), { path, allow }];
    this.pages.set(domain, list);
    return list;
  }
  async removeProtectedPage(domain: string, path: string) {
    const list = await this.listProtectedPages(domain);
    if (!list.some((p) => p.path === path)) throw new CodedError('not_found', `${path} is not protected on ${domain}`);
    this.pages.set(domain, list.filter((p) => p.path !== path));
    return this.pages.get(domain)!;
  }
  async getBot(domain: string) {
    this.find(domain);
    return this.bots.get(domain) ?? { enabled: false, challenge: 'off' as const, challenge_exempt: [] };
  }
  async setBot(domain: string, bot: { enabled: boolean; challenge?: 'js' | 'off'; challenge_exempt?: string[] }) {
    const current = await this.getBot(domain);
    const next = { enabled: bot.enabled, challenge: bot.challenge ?? current.challenge, challenge_exempt: bot.challenge_exempt ?? current.challenge_exempt };
    this.bots.set(domain, next);
    return next;
  }
  async getRules(domain: string): Promise<RulesView> {
    this.find(domain);
    const last = this.rulesSet.filter((r) => r.domain === domain).at(-1)?.files;
    const file = (f: { path: string; text: string } | null | undefined) => (f ? { path: f.path, sha256: '0'.repeat(64), set_at: '2026-11-22T05:00:00.000Z', lines: f.text.split('\n').length } : null);
    return {
      site: domain, mode: 'on', paranoia: 1, inbound_threshold: 5, outbound_threshold: 4, groups: { cms: true, crs: true },
      before: file(last?.before), after: file(last?.after),
      crs: { found: true, dir: '/usr/share/modsecurity-crs', rules_dir: '/usr/share/modsecurity-crs/rules', setup_file: '/etc/modsecurity/crs/crs-setup.conf' },
      load: { ok: true, error: null, rules: 600 },
    };
  }
  async setRules(domain: string, files: SetRulesBody) {
    this.find(domain);
    this.rulesSet.push({ domain, files });
    return this.getRules(domain);
  }
  // The fake daemon keeps no WAF events: every event is unknown, as to a daemon that never saw it.
  async excludeEvent(domain: string, body: { event: string }): Promise<never> {
    this.find(domain);
    throw new CodedError('not_found', `no WAF event of ${domain} has the id ${body.event}`);
  }
  async removeExclusion(domain: string, event: string): Promise<never> {
    this.find(domain);
    throw new CodedError('not_found', `no exclusion in the before file of ${domain} comes from ${event}`);
  }
  async getAccount() {
    this.check();
    return { id: 1, name: 'default', api_access: this.apiAccess };
  }
  async setApiAccess(enabled: boolean) {
    this.check();
    this.apiAccess = enabled;
    return this.getAccount();
  }
  async listTokens() {
    this.check();
    return this.tokens.map(({ token: _token, ...view }) => view);
  }
  async createToken(name: string) {
    this.check();
    const created = { id: this.tokens.length + 1, name, created_at: '2026-11-22T05:00:00.000Z', last_used_at: null, token: 't'.repeat(48) };
    this.tokens.push(created);
    return { id: created.id, name, token: created.token, created_at: created.created_at };
  }
  async revokeToken(id: number) {
    this.check();
    if (!this.tokens.some((t) => t.id === id)) throw new CodedError('not_found', `no token ${id}`);
    this.tokens = this.tokens.filter((t) => t.id !== id);
    return { id, revoked: true as const };
  }
  async vulndbStatus() {
    this.check();
    return this.vulndb;
  }
  async vulndbImportUpload(chunks: AsyncIterable<Buffer | string>, label: string) {
    this.check();
    let text = '';
    for await (const chunk of chunks) text += String(chunk);
    this.vulndbImports.push({ kind: 'upload', label, text });
    return this.importText(text, label, 'stream');
  }
  async vulndbImportUrl(url: string, apiKey?: string) {
    this.check();
    this.vulndbImports.push({ kind: 'url', url, apiKey });
    return this.importText('{"fake-record": {}}', url, 'url');
  }
  async vulndbRefresh() {
    this.check();
    if (!this.vulndbRefreshSetting) throw new CodedError('refresh_not_configured', 'no refresh URL is configured for the vulnerability database');
    return { ...this.vulndb, refresh: this.vulndbRefreshSetting };
  }
  /** A stand-in import: each top-level key of the JSON object is a record. */
  private importText(text: string, source: string, kind: 'stream' | 'url'): VulnDbImportResult {
    if (this.vulndbImportFailure) throw this.vulndbImportFailure;
    let records: number;
    try {
      records = Object.keys(JSON.parse(text) as object).length;
    } catch (error) {
      throw new CodedError('invalid_json', `the feed is not valid JSON: ${(error as Error).message}`);
    }
    this.vulndb = {
      loaded: true,
      source,
      source_kind: kind,
      variant: { api: 'unknown', feed: 'production' },
      imported_at: '2026-11-22T06:00:00.000Z',
      records,
      skipped: 0,
      duplicates: 0,
      sha256: createHash('sha256').update(text).digest('hex'),
      bytes: Buffer.byteLength(text),
      duration_ms: 5,
    };
    return { status: this.vulndb, skipped_sample: [] };
  }
}

export class FakeDaemon implements DaemonControl {
  calls: Array<{ verb: string; argv?: string[]; dataDir?: string }> = [];
  startResult: StartResult = { ok: true, status: STATUS };
  stopResult: StopResult = { ok: true, pid: 4242 };
  foregroundCode = 0;
  async startInBackground(argv: string[], options: { dataDir: string }) {
    this.calls.push({ verb: 'start', argv, dataDir: options.dataDir });
    return this.startResult;
  }
  async runInForeground(argv: string[]) {
    this.calls.push({ verb: 'foreground', argv });
    return this.foregroundCode;
  }
  async stop(options: { dataDir: string }) {
    this.calls.push({ verb: 'stop', dataDir: options.dataDir });
    return this.stopResult;
  }
}

export interface Harness {
  io: RecordingIo;
  admin: FakeAdmin;
  daemon: FakeDaemon;
  deps: CommandDeps;
  adminDataDirs: string[];
  files: FakeFiles;
  sleeps: number[];
}

export function harness(env: Record<string, string> = {}, ioOptions: { isTTY?: boolean; columns?: number } = {}): Harness {
  const home = mkdtempSync(join(tmpdir(), 'wafctl-cli-'));
  const io = recordingIo({ ...ioOptions, env: { HOME: home, ...env } });
  const admin = new FakeAdmin();
  const daemon = new FakeDaemon();
  const adminDataDirs: string[] = [];
  const files = new FakeFiles();
  const sleeps: number[] = [];
  const deps: CommandDeps = {
    io,
    files,
    sleep: async (ms) => void sleeps.push(ms),
    version: '9.9.9-test',
    defaultDataDir: () => '/default/data',
    admin: (dataDir) => {
      adminDataDirs.push(dataDir);
      return admin;
    },
    daemon,
    profiles: new ProfileStore(io.env),
    apiClient: (options) => ApiClient.withCaFile(options),
    // The real store and installer: `wafctl crs` tests give them their own temporary data dir.
    crs: (dataDir) => crsReleases(dataDir, io.env as NodeJS.ProcessEnv),
    checkCaFile: async (path) => {
      if (path.includes('missing')) throw new CodedError('invalid_ca', `cannot read ${path}`);
      return path;
    },
  };
  return { io, admin, daemon, deps, adminDataDirs, files, sleeps };
}

/** Files in memory: `inputs` are read by path (`-` for stdin), created files collect their lines. */
export class FakeFiles {
  readonly inputs = new Map<string, string>();
  readonly created = new Map<string, string[]>();

  async *read(path: string): AsyncIterable<string> {
    const text = this.inputs.get(path);
    if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    // Small chunks, so readers meet entries split across chunk boundaries.
    for (let i = 0; i < text.length; i += 7) yield text.slice(i, i + 7);
  }

  async create(path: string) {
    const lines: string[] = [];
    this.created.set(path, lines);
    return { write: async (line: string) => void lines.push(line), close: async () => undefined };
  }
}
