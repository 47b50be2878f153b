// The real AdminApi: shared/admin-client.ts (undici over the admin socket, answers parsed with the
// shared schemas). Kept apart from the interface so unit tests never load undici.
import { AdminClient } from '../shared/admin-client.js';
import type { AdminApi, AutoBan, ExcludeEventBody, NewSite, SetRulesBody, SiteChanges } from './admin-api.js';

type AddBody = Parameters<AdminClient['addSite']>[0];
type UpdateBody = Parameters<AdminClient['updateSite']>[1];

export class SocketAdminApi implements AdminApi {
  constructor(private readonly client: AdminClient) {}

  static forSocket(socketPath: string): SocketAdminApi {
    return new SocketAdminApi(new AdminClient(socketPath));
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  status() {
    return this.client.status();
  }
  reload() {
    return this.client.reload();
  }

  reloadCrs() {
    return this.client.reloadCrs();
  }
  listSites(options?: { all?: boolean }) {
    return this.client.listSites(options);
  }
  // Plan names are checked by commander (choices) and again by the daemon: pass them as given.
  addSite(site: NewSite) {
    return this.client.addSite(site as AddBody);
  }
  getSite(domain: string) {
    return this.client.getSite(domain);
  }
  updateSite(domain: string, changes: SiteChanges) {
    return this.client.updateSite(domain, changes as UpdateBody);
  }
  disableSite(domain: string) {
    return this.client.disableSite(domain);
  }
  enableSite(domain: string) {
    return this.client.enableSite(domain);
  }
  deleteSite(domain: string) {
    return this.client.deleteSite(domain);
  }
  newSiteKey(domain: string) {
    return this.client.siteKey(domain);
  }
  listRateLimits(domain: string) {
    return this.client.listRateLimits(domain);
  }
  addRateLimit(domain: string, path: string, perMinute: number) {
    return this.client.addRateLimit(domain, { path, per_minute: perMinute });
  }
  removeRateLimit(domain: string, path: string) {
    return this.client.removeRateLimit(domain, path);
  }
  listBans(domain: string, all: boolean) {
    return this.client.listBans(domain, all);
  }
  addBan(domain: string, ban: { ip: string; minutes?: number; reason?: string }) {
    return this.client.addBan(domain, ban);
  }
  removeBan(domain: string, ip: string) {
    return this.client.removeBan(domain, ip);
  }
  getAutoBan(domain: string) {
    return this.client.getAutoBan(domain);
  }
  async setAutoBan(domain: string, setting: AutoBan | null) {
    if (setting === null) return this.client.clearAutoBan(domain);
    return this.client.setAutoBan(domain, setting);
  }
  listProtectedPages(domain: string) {
    return this.client.listProtectedPages(domain);
  }
  addProtectedPage(domain: string, path: string, allow: string[]) {
    return this.client.addProtectedPage(domain, { path, allow });
  }
  removeProtectedPage(domain: string, path: string) {
    return this.client.removeProtectedPage(domain, path);
  }
  getBot(domain: string) {
    return this.client.getBot(domain);
  }
  setBot(domain: string, bot: { enabled: boolean; challenge?: 'js' | 'off'; challenge_exempt?: string[] }) {
    return this.client.setBot(domain, bot);
  }
  getRules(domain: string) {
    return this.client.getRules(domain);
  }
  setRules(domain: string, files: SetRulesBody) {
    return this.client.setRules(domain, files);
  }
  excludeEvent(domain: string, body: ExcludeEventBody) {
    return this.client.excludeEvent(domain, body);
  }
  removeExclusion(domain: string, event: string) {
    return this.client.removeExclusion(domain, event);
  }
  getAccount() {
    return this.client.getAccount();
  }
  setApiAccess(enabled: boolean) {
    return this.client.setApiAccess(enabled);
  }
  listTokens() {
    return this.client.listTokens();
  }
  createToken(name: string) {
    return this.client.createToken(name);
  }
  revokeToken(id: number) {
    return this.client.revokeToken(id);
  }
  vulndbStatus() {
    return this.client.vulndbStatus();
  }
  vulndbImportUpload(chunks: AsyncIterable<Buffer | string>, label: string) {
    return this.client.vulndbImportUpload(chunks, label);
  }
  vulndbImportUrl(url: string, apiKey?: string) {
    return this.client.vulndbImportFrom(url, apiKey);
  }
  vulndbRefresh() {
    return this.client.vulndbRefresh();
  }
}
