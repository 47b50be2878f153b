import { Readable } from 'node:stream';
import type { Client } from 'undici';
import { z } from 'zod';
import { WafctlError, isErrorCode } from './errors.js';
import { dataPaths } from './paths.js';
import {
  AccountViewSchema, ApiKeySchema, CreatedTokenSchema, CrsReloadSchema, DaemonStatusSchema, ReloadedSchema, RevokedTokenSchema,
  SiteSchema, SiteWithKeySchema, StoppingSchema, TokenViewSchema,
  type AddSiteBody,
} from './schemas/admin.js';
import {
  BotViewSchema, ProtectedPageViewSchema, RateLimitViewSchema, RulesViewSchema,
  type SetRulesBody, type UpdateSiteBody,
} from './schemas/site-settings.js';
import { ExclusionRemovedSchema, ExclusionResultSchema, type ExcludeEventBody } from './schemas/rule-exclusion.js';
import { VulnDbImportResultSchema, VulnDbStatusSchema } from './schemas/vulndb.js';
import { AutoBanSchema, BanSchema, BanViewSchema, type AutoBan } from './schemas/bans.js';

// Typed client for the admin socket (daemon/admin/ROUTES.md), vulnerability database included:
// HTTP/1.1 over the unix socket with undici. Every answer is parsed with the shared schema; an error answer or an unreachable socket is
// thrown as a WafctlError whose code comes from shared/errors.ts (daemon_unreachable when nothing
// listens), so callers map codes to exit statuses in one place.

/** Imports and refreshes answer when the new database is live (minutes for a 160 MB feed): no
 *  time limit on those calls but the daemon's own. undici's 0 means none. */
const NO_TIME_LIMIT = 0;

/** What one call sends besides its method and path. */
interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** A raw body (the feed upload), sent as it is with `headers`. */
  stream?: Readable;
  headers?: Record<string, string>;
  /** Overrides the client's header and body timeouts for this call. */
  timeoutMs?: number;
}

export class AdminClient {
  readonly socketPath: string;
  readonly #timeout: number;
  // undici is imported on the first call, not at start-up: it is a quarter of a CLI process's start
  // (~0.1 s), and most commands (ingest, the API commands, --help) never use the admin socket.
  #client: Promise<Client> | undefined;

  constructor(socketPath: string, options: { timeoutMs?: number } = {}) {
    this.socketPath = socketPath;
    this.#timeout = options.timeoutMs ?? 30_000;
  }

  #connected(): Promise<Client> {
    const timeout = this.#timeout, socketPath = this.socketPath;
    this.#client ??= import('undici').then(({ Client }) => new Client('http://localhost', { socketPath, headersTimeout: timeout, bodyTimeout: timeout, connect: { timeout } }));
    return this.#client;
  }

  static forDataDir(dataDir: string, options?: { timeoutMs?: number }): AdminClient {
    return new AdminClient(dataPaths(dataDir).adminSocket, options);
  }

  async close(): Promise<void> {
    if (this.#client) await (await this.#client).close();
  }

  status() { return this.#call('GET', '/admin/status', DaemonStatusSchema); }
  reload() { return this.#call('POST', '/admin/reload', ReloadedSchema); }
  reloadCrs() { return this.#call('POST', '/admin/crs/reload', CrsReloadSchema); }
  shutdown() { return this.#call('POST', '/admin/shutdown', StoppingSchema); }

  listSites(options: { all?: boolean } = {}) {
    return this.#call('GET', options.all ? '/admin/sites?all=1' : '/admin/sites', z.array(SiteSchema));
  }
  addSite(body: AddSiteBody) { return this.#call('POST', '/admin/sites', SiteWithKeySchema, { body }); }
  getSite(domain: string) { return this.#call('GET', sitePath(domain), SiteSchema); }
  updateSite(domain: string, body: UpdateSiteBody) { return this.#call('PATCH', sitePath(domain), SiteSchema, { body }); }
  disableSite(domain: string) { return this.#call('POST', `${sitePath(domain)}/disable`, SiteSchema); }
  enableSite(domain: string) { return this.#call('POST', `${sitePath(domain)}/enable`, SiteSchema); }
  deleteSite(domain: string) { return this.#call('DELETE', sitePath(domain), SiteSchema); }
  /** Generates or regenerates the site key; the clear key is in the answer and nowhere else. */
  siteKey(domain: string) { return this.#call('POST', `${sitePath(domain)}/key`, ApiKeySchema); }

  listRateLimits(domain: string) { return this.#call('GET', `${sitePath(domain)}/rate-limits`, z.array(RateLimitViewSchema)); }
  addRateLimit(domain: string, body: { path: string; per_minute: number }) { return this.#call('POST', `${sitePath(domain)}/rate-limits`, z.array(RateLimitViewSchema), { body }); }
  removeRateLimit(domain: string, path: string) { return this.#call('DELETE', `${sitePath(domain)}/rate-limits`, z.array(RateLimitViewSchema), { body: { path } }); }
  listProtectedPages(domain: string) { return this.#call('GET', `${sitePath(domain)}/protected-pages`, z.array(ProtectedPageViewSchema)); }
  addProtectedPage(domain: string, body: { path: string; allow: string[] }) { return this.#call('POST', `${sitePath(domain)}/protected-pages`, z.array(ProtectedPageViewSchema), { body }); }
  removeProtectedPage(domain: string, path: string) { return this.#call('DELETE', `${sitePath(domain)}/protected-pages`, z.array(ProtectedPageViewSchema), { body: { path } }); }
  listBans(domain: string, all: boolean) { return this.#call('GET', `${sitePath(domain)}/bans${all ? '?all=1' : ''}`, z.array(BanViewSchema)); }
  addBan(domain: string, body: { ip: string; minutes?: number; reason?: string }) { return this.#call('POST', `${sitePath(domain)}/bans`, BanSchema, { body }); }
  removeBan(domain: string, ip: string) { return this.#call('DELETE', `${sitePath(domain)}/bans`, z.array(BanSchema), { body: { ip } }); }
  getAutoBan(domain: string) { return this.#call('GET', `${sitePath(domain)}/auto-ban`, AutoBanSchema.nullable()); }
  setAutoBan(domain: string, body: AutoBan) { return this.#call('PUT', `${sitePath(domain)}/auto-ban`, AutoBanSchema, { body }); }
  clearAutoBan(domain: string) { return this.#call('DELETE', `${sitePath(domain)}/auto-ban`, z.null()); }
  getBot(domain: string) { return this.#call('GET', `${sitePath(domain)}/bot`, BotViewSchema); }
  setBot(domain: string, body: { enabled: boolean; challenge?: 'js' | 'off'; challenge_exempt?: string[] }) { return this.#call('PUT', `${sitePath(domain)}/bot`, BotViewSchema, { body }); }
  getRules(domain: string) { return this.#call('GET', `${sitePath(domain)}/rules`, RulesViewSchema); }
  setRules(domain: string, body: SetRulesBody) { return this.#call('PUT', `${sitePath(domain)}/rules`, RulesViewSchema, { body }); }
  excludeEvent(domain: string, body: ExcludeEventBody) { return this.#call('POST', `${sitePath(domain)}/rules/exclusions`, ExclusionResultSchema, { body }); }
  removeExclusion(domain: string, event: string) { return this.#call('DELETE', `${sitePath(domain)}/rules/exclusions`, ExclusionRemovedSchema, { body: { event } }); }

  getAccount() { return this.#call('GET', '/admin/account', AccountViewSchema); }
  setApiAccess(enabled: boolean) { return this.#call('PUT', '/admin/account', AccountViewSchema, { body: { api_access: enabled } }); }

  listTokens() { return this.#call('GET', '/admin/tokens', z.array(TokenViewSchema)); }
  createToken(name: string) { return this.#call('POST', '/admin/tokens', CreatedTokenSchema, { body: { name } }); }
  revokeToken(id: number | string) { return this.#call('DELETE', `/admin/tokens/${encodeURIComponent(String(id))}`, RevokedTokenSchema); }

  /** The vulnerability database (`wafctl vulndb status`). */
  vulndbStatus() { return this.#call('GET', '/admin/vulndb', VulnDbStatusSchema); }

  /** Streams a feed; `label` (the file's absolute path) is what `vulndb status` shows as the source. */
  async vulndbImportUpload(chunks: AsyncIterable<Buffer | string>, label: string) {
    // A read error of the local file must surface as itself, not as a broken socket.
    let readError: unknown;
    async function* guarded(): AsyncIterable<Buffer | string> {
      try {
        yield* chunks;
      } catch (error) {
        readError = error;
        throw error;
      }
    }
    try {
      return await this.#call('PUT', '/admin/vulndb/import', VulnDbImportResultSchema, {
        stream: Readable.from(guarded(), { objectMode: false }),
        // Header values must be Latin-1: a path with other characters is sent percent-encoded.
        headers: { 'content-type': 'application/octet-stream', 'x-vulndb-source': headerSafe(label) },
        timeoutMs: NO_TIME_LIMIT,
      });
    } catch (error) {
      if (readError !== undefined) throw readError;
      throw error;
    }
  }

  /** The daemon fetches an http(s) URL (or reads an absolute path it can see) itself. */
  vulndbImportFrom(source: string, apiKey?: string) {
    const body = apiKey === undefined ? { source } : { source, api_key: apiKey };
    return this.#call('POST', '/admin/vulndb/import', VulnDbImportResultSchema, { body, timeoutMs: NO_TIME_LIMIT });
  }

  vulndbRefresh() { return this.#call('POST', '/admin/vulndb/refresh', VulnDbStatusSchema, { timeoutMs: NO_TIME_LIMIT }); }

  async #call<S extends z.ZodType>(method: string, path: string, schema: S, options: CallOptions = {}): Promise<z.output<S>> {
    const { body, stream, timeoutMs } = options;
    let response;
    try {
      response = await (await this.#connected()).request({
        method: method as 'GET',
        path,
        headers: options.headers ?? (body === undefined ? {} : { 'content-type': 'application/json' }),
        body: stream ?? (body === undefined ? undefined : JSON.stringify(body)),
        ...(timeoutMs === undefined ? {} : { headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
      });
    } catch (error) {
      throw unreachable(this.socketPath, error as NodeJS.ErrnoException);
    }
    const text = await response.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new WafctlError('internal_error', `the daemon answered ${response.statusCode} with a body that is not JSON`);
    }
    const envelope = json as { success?: unknown; data?: unknown; error?: unknown; message?: unknown };
    if (envelope.success !== true) {
      const message = typeof envelope.message === 'string' ? envelope.message : `the daemon answered ${response.statusCode}`;
      throw new WafctlError(isErrorCode(envelope.error) ? envelope.error : 'internal_error', message);
    }
    const parsed = schema.safeParse(envelope.data);
    if (!parsed.success) throw new WafctlError('internal_error', `unexpected answer from ${method} ${path}: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  }
}

function sitePath(domain: string): string {
  return `/admin/sites/${encodeURIComponent(domain)}`;
}

function unreachable(socketPath: string, error: NodeJS.ErrnoException): WafctlError {
  const why = error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
    ? 'no daemon is listening'
    : error.code === 'EACCES' ? 'permission denied (the socket is mode 0600: run as the daemon\'s user)' : (error.message || String(error.code));
  return new WafctlError('daemon_unreachable', `cannot reach the wafctl daemon at ${socketPath}: ${why}; start it with \`wafctl daemon start\``);
}

function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURI(value);
}
