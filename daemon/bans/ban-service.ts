// The bans of a node, in the daemon's primary: turns the edge's rate-limit blocks into strikes
// and strikes into automatic bans (the site's auto_ban setting), adds and lifts manual bans, keeps
// the table the edge looks bans up in, and tells the edge workers each time the live bans change.
//
// A strike is a client's first request over one of the site's rate limits (a path limit or a rule
// counter) in a window: the block event says `count/limit`, and count = limit + 1 happens once per
// key and window (counts are consecutive, in Redis as in memory). Strikes are counted in the same
// counter store as the limits, so in a cluster with --cluster-redis they add up across nodes and
// exactly one node reaches `strikes` and sets the ban. Only the edge's own events are watched:
// events a client posts to the ingestion API never ban anybody.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Ban, BanView } from '../../shared/schemas/bans.js';
import { parseIpRange } from '../../shared/schemas/ip.js';
import type { NewWafEvent } from '../../shared/schemas/events.js';
import type { StoredSite } from '../../shared/schemas/site.js';
import type { WafEvent } from '../proxy/events.js';
import type { CounterHit, CounterStore } from '../store/counter-store.js';
import { isActive, type BanStore } from './ban-store.js';
import { BanTable } from './ban-table.js';

export interface BanServiceOptions {
  store: BanStore;
  /** The counter store of the rate limits (the cluster's with --cluster-redis). */
  counters: CounterStore;
  sites: () => readonly StoredSite[];
  /** Where the ban's own WAF event goes (the event store), so a ban shows in `wafctl logs`. */
  events: (event: NewWafEvent) => void;
  logger: Logger;
  clock?: () => number;
  /** How often the table is rebuilt to drop expired bans (lookups ignore them already). */
  sweepEveryMs?: number;
}

const OVER_LIMIT = /^(\d+)\/(\d+)$/;

export class BanService {
  readonly table = new BanTable();
  readonly #o: BanServiceOptions;
  readonly #clock: () => number;
  readonly #node = hostname();
  readonly #listeners = new Set<(live: Ban[]) => void>();
  readonly #unsubscribe: () => void;
  readonly #sweep: NodeJS.Timeout;
  /** The ids of the live bans the table holds, to tell a change from none. */
  #liveKey: string | null = null;
  /** Site and address of automatic bans being written: a second trigger meanwhile adds nothing. */
  readonly #pending = new Set<string>();

  constructor(o: BanServiceOptions) {
    this.#o = o;
    this.#clock = o.clock ?? Date.now;
    this.#unsubscribe = o.store.onChange(() => this.#refresh());
    this.#sweep = setInterval(() => this.#refresh(), o.sweepEveryMs ?? 30_000);
    this.#sweep.unref();
    this.#refresh();
  }

  /** The live bans now (what the edge workers are sent). */
  live(): Ban[] {
    const now = this.#clock();
    return this.#o.store.all().filter((b) => isActive(b, now));
  }

  /** Called with the live bans after every change (and every sweep). */
  onChange(listener: (live: Ban[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A WAF event of the edge (this process's or a worker's): a strike when it is a first over-limit block. */
  observe(event: WafEvent): void {
    if (event.group !== 'rate-limit') return;
    const m = OVER_LIMIT.exec(event.matched_data ?? '');
    if (!m || Number(m[1]) !== Number(m[2]) + 1) return;
    const site = this.#o.sites().find((s) => s.id === event.site_id);
    const auto = site?.protection.auto_ban;
    const address = parseIpRange(event.client_ip);
    if (!site || !auto || site.status === 'deleted' || !address.ok) return;
    const ip = address.range.text;
    const now = this.#clock();
    const key = `${site.id}\u0000ban-strikes\u0000${ip}`;
    const strike = (hit: CounterHit): void => {
      if (hit.denied || hit.count !== auto.strikes) return;
      const reason = `${auto.strikes} rate-limit strike${auto.strikes === 1 ? '' : 's'} within ${auto.window_minutes} min`;
      this.#autoBan(site, ip, event, auto.ban_minutes, reason).catch((error: unknown) => this.#o.logger.error({ err: error, site: site.domain, ip }, 'bans: an automatic ban could not be stored'));
    };
    try {
      const hit = this.#o.counters.hit(key, auto.window_minutes * 60_000, now);
      if (hit instanceof Promise) hit.then(strike, (error: unknown) => this.#o.logger.warn({ err: error }, 'bans: a strike could not be counted'));
      else strike(hit);
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'bans: a strike could not be counted');
    }
  }

  /** A manual ban (`wafctl bans add`). `body.ip` is canonical (AddBanBodySchema). */
  async add(site: StoredSite, body: { ip: string; minutes: number; reason: string }): Promise<Ban> {
    const ban = this.#ban(site.id, body.ip, body.minutes, body.reason, 'manual');
    await this.#o.store.add(ban);
    this.#o.events(this.#event(site, ban, { method: 'BAN', uri: '' }, 'manual-ban', `Banned by the operator for ${body.minutes} min${body.reason ? `: ${body.reason}` : ''}`));
    return ban;
  }

  /** Lifts the active bans of exactly `ip` on the site; resolves with them (none: nothing was active). */
  remove(site: StoredSite, ip: string): Promise<Ban[]> {
    return this.#o.store.revoke(site.id, ip, new Date(this.#clock()).toISOString());
  }

  /** The site's bans, newest first: active ones, or with `all` also those that ended this week. */
  list(siteId: number, all: boolean): BanView[] {
    const now = this.#clock();
    return this.#o.store.all()
      .filter((b) => b.site_id === siteId)
      .map((b): BanView => ({ ...b, state: b.revoked_at !== null ? 'revoked' : isActive(b, now) ? 'active' : 'expired' }))
      .filter((b) => all || b.state === 'active')
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  close(): void {
    this.#unsubscribe();
    clearInterval(this.#sweep);
    this.#listeners.clear();
  }

  async #autoBan(site: StoredSite, ip: string, event: WafEvent, minutes: number, reason: string): Promise<void> {
    const key = `${site.id}\u0000${ip}`;
    const now = this.#clock();
    if (this.#pending.has(key) || this.#o.store.all().some((b) => b.site_id === site.id && b.ip === ip && isActive(b, now))) return;
    this.#pending.add(key);
    try {
      const ban = this.#ban(site.id, ip, minutes, reason, 'auto');
      await this.#o.store.add(ban);
      this.#o.logger.info({ site: site.domain, ip: ban.ip, until: ban.expires_at }, `bans: ${ban.ip} banned on ${site.domain} (${reason})`);
      this.#o.events(this.#event(site, ban, event, 'auto-ban', `Banned for ${minutes} min after ${reason}`));
    } finally {
      this.#pending.delete(key);
    }
  }

  #ban(siteId: number, ip: string, minutes: number, reason: string, source: Ban['source']): Ban {
    const now = this.#clock();
    return {
      id: randomUUID(), site_id: siteId, ip, reason, source, node: this.#node,
      created_at: new Date(now).toISOString(), expires_at: new Date(now + minutes * 60_000).toISOString(), revoked_at: null,
    };
  }

  #event(site: StoredSite, ban: Ban, at: { method: string; uri: string }, ruleId: string, msg: string): NewWafEvent {
    return {
      timestamp_ms: Date.parse(ban.created_at), site_id: site.id, host: site.domain, client_ip: ban.ip, uri: at.uri, method: at.method,
      waf_file: 'edge/bans', rule_id: ruleId, severity: 'CRITICAL', msg, group: 'ban', action: 'block',
      matched_var: 'REMOTE_ADDR', matched_data: `until ${ban.expires_at}`,
    };
  }

  /** Rebuilds the table and tells the listeners, when the live bans changed (a sweep mostly finds none). */
  #refresh(): void {
    const live = this.live();
    const key = live.map((b) => b.id).join(',');
    if (key === this.#liveKey) return;
    this.#liveKey = key;
    this.table.replace(live, this.#clock());
    for (const listener of this.#listeners) listener(live);
  }
}
