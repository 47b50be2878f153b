import type { Waf } from '../engine/waf.js';
import { compileRuleSet, ruleCount, type CrsLocation } from './rule-set-builder.js';
import { warmUp } from '../engine/budget/warm-up.js';
import { defaultRuleSettings, latestRuleSettings, onRuleSettingsAnnounced, withoutUserFiles, type WafRuleSettings } from './rule-settings.js';

export { BASE_SETTINGS, CMS_RULES, findCrs, type CrsLocation } from './rule-set-builder.js';

// One compiled Waf per distinct combination of per-site settings (rule-settings.ts), built once
// and shared by every site with the same settings, and by every RuleGroups of the process that
// uses the same CRS (the admin socket's validation and `rules show` reuse what the edge compiled).
// Loading CRS takes about a second, so compiles never happen on the request path: a snapshot
// announces its settings and they are compiled in the background; until one is ready, a site keeps
// the rule set it had (or, first time, the default at its paranoia level). A combination that does
// not compile (a user file with an error) is logged once; its site runs the same settings without
// its user files.

export type RuleSetOutcome =
  | { readonly ok: true; readonly waf: Waf; readonly rules: number }
  | { readonly ok: false; readonly error: string };

interface Entry {
  outcome: RuleSetOutcome | null; // null: queued
  announcedAt: number;
}

/** Combinations no snapshot has named for this long are dropped (their memory is a CRS each). */
const IDLE_MS = 10 * 60_000;
/**
 * At most this many compiled combinations are cached (about 7 MB each with CRS): a process that
 * compiles without announcements (the daemon's primary with --workers validating `rules set`) must
 * not grow with every change. The least recently named go first; a live snapshot keeps what it
 * uses reachable anyway (RuleGroups.bySettings).
 */
const MAX_CACHED = 32;

const shared = new Map<string, Entry>();
// The plugin files and their contents are part of the key: a reload that finds other plugins compiles anew.
const crsKey = (crs: CrsLocation) => [crs.rulesDir, crs.setupFile, crs.pluginDigest, ...crs.plugins.config, ...crs.plugins.before, ...crs.plugins.after].join('|');
const cacheKey = (crs: CrsLocation | null, settings: WafRuleSettings) => `${crs ? crsKey(crs) : '-'}|${settings.key}`;

export interface RuleGroupsOptions {
  /** Where a combination that fails to compile is reported (the daemon's log). */
  log?: (message: string) => void;
  /** Compile what snapshots announce in the background (default true). */
  prepareAnnounced?: boolean;
}

export class RuleGroups {
  /** Per-request fast path: settings object (interned per snapshot) -> its Waf. Replaced when the CRS is switched. */
  private bySettings = new WeakMap<WafRuleSettings, Waf>();
  private current: CrsLocation | null;
  /** The last rule set each site ran: what it keeps while its new one is built or when that fails. */
  private readonly lastBySite = new Map<number, Waf>();
  private readonly queue: WafRuleSettings[] = [];
  private draining = false;
  private readonly log: (message: string) => void;
  // Kept as a field: the announcement registry holds listeners weakly.
  private readonly onAnnounce = (list: readonly WafRuleSettings[]) => {
    const now = Date.now();
    for (const settings of list) {
      const entry = shared.get(cacheKey(this.crs, settings));
      if (entry) entry.announcedAt = now;
      else this.prepare(settings);
    }
    const keep = cacheKey(this.crs, defaultRuleSettings(1)); // the last-resort fallback stays
    for (const [key, entry] of shared) if (key !== keep && now - entry.announcedAt > IDLE_MS && entry.outcome !== null) shared.delete(key);
  };

  constructor(crs: CrsLocation | null, options: RuleGroupsOptions = {}) {
    this.current = crs;
    this.log = options.log ?? ((message) => console.error(message));
    if (options.prepareAnnounced !== false) onRuleSettingsAnnounced(this.onAnnounce);
  }

  /** The Core Rule Set these rule sets are built from (null: none, the cms group alone). */
  get crs(): CrsLocation | null {
    return this.current;
  }

  /**
   * Switches to other CRS rules (another release, other plugins: `wafctl daemon reload`). What the
   * sites run under the new rules is compiled first, one set per event-loop turn as in the
   * background, while requests keep the old sets; then every site moves to the new sets at once.
   * Resolves once they are live. A combination that does not compile under the new rules is logged
   * and its sites fall back as on any failed compile (the same settings without user files).
   */
  async switchCrs(next: CrsLocation | null): Promise<void> {
    const wanted = [defaultRuleSettings(1), ...latestRuleSettings()];
    for (const settings of wanted) {
      const outcome = this.loadWith(next, settings);
      if (!outcome.ok) {
        this.log(`WAF rule set ${settings.key} does not load under the new Core Rule Set, its sites run without their user rule files: ${outcome.error}`);
        this.loadWith(next, withoutUserFiles(settings));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.current = next;
    this.bySettings = new WeakMap();
  }

  /** The default rule set at a paranoia level (1-4), compiled now if it is not yet (start-up warm-up). */
  forParanoia(level: number): Waf {
    const settings = defaultRuleSettings(level as 1 | 2 | 3 | 4);
    const known = this.bySettings.get(settings);
    if (known) return known;
    const outcome = this.load(settings);
    if (!outcome.ok) throw new Error(`the default rule set does not load: ${outcome.error}`);
    this.bySettings.set(settings, outcome.waf);
    return outcome.waf;
  }

  /** Compiles a combination now unless it is known; never throws. For validation and `rules show`. */
  load(settings: WafRuleSettings): RuleSetOutcome {
    return this.loadWith(this.crs, settings);
  }

  private loadWith(crs: CrsLocation | null, settings: WafRuleSettings): RuleSetOutcome {
    const key = cacheKey(crs, settings);
    const known = shared.get(key);
    if (known?.outcome) return known.outcome;
    let outcome: RuleSetOutcome;
    try {
      const waf = compileRuleSet(settings, crs);
      // A cold set would spend the first requests' time budget compiling regexes (engine/budget/warm-up.ts).
      warmUp(waf);
      outcome = { ok: true, waf, rules: ruleCount(waf) };
    } catch (error) {
      outcome = { ok: false, error: (error as Error).message };
    }
    shared.set(key, { outcome, announcedAt: known?.announcedAt ?? Date.now() });
    if (shared.size > MAX_CACHED) this.trim(key);
    return outcome;
  }

  private trim(justAdded: string): void {
    const keep = new Set([justAdded, cacheKey(this.crs, defaultRuleSettings(1))]);
    const oldest = [...shared].filter(([key, entry]) => !keep.has(key) && entry.outcome !== null)
      .sort((a, b) => a[1].announcedAt - b[1].announcedAt);
    for (const [key] of oldest.slice(0, shared.size - MAX_CACHED)) shared.delete(key);
  }

  /** Queues a compile off the request path (one per event-loop turn). */
  prepare(settings: WafRuleSettings): void {
    const key = cacheKey(this.crs, settings);
    if (shared.has(key)) return;
    shared.set(key, { outcome: null, announcedAt: Date.now() });
    this.queue.push(settings);
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
  }

  private drain(): void {
    const next = this.queue.shift();
    if (!next) { this.draining = false; return; }
    const key = cacheKey(this.crs, next);
    const entry = shared.get(key);
    if (entry && entry.outcome === null) shared.delete(key); // let load() compile it
    const outcome = this.load(next);
    if (!outcome.ok) {
      this.log(`WAF rule set ${next.key} does not load, its sites run without their user rule files: ${outcome.error}`);
      this.prepare(withoutUserFiles(next));
    }
    setImmediate(() => this.drain());
  }

  /**
   * The rule set for a request of `siteId` with these settings. Never compiles on the request path
   * (except once, if not even the default at paranoia 1 was built before listening).
   */
  forSite(siteId: number, settings: WafRuleSettings): Waf {
    let waf = this.bySettings.get(settings);
    if (waf === undefined) {
      const entry = shared.get(cacheKey(this.crs, settings));
      if (entry?.outcome?.ok) {
        waf = entry.outcome.waf;
        this.bySettings.set(settings, waf);
      } else {
        if (!entry) this.prepare(settings);
        return this.fallback(siteId, settings, entry?.outcome ?? null);
      }
    }
    if (this.lastBySite.get(siteId) !== waf) this.lastBySite.set(siteId, waf);
    return waf;
  }

  private fallback(siteId: number, settings: WafRuleSettings, outcome: RuleSetOutcome | null): Waf {
    if (outcome && !outcome.ok) {
      // Failed: the same settings without the user files, once compiled.
      const plain = shared.get(cacheKey(this.crs, withoutUserFiles(settings)))?.outcome;
      if (plain?.ok) return plain.waf;
    }
    const previous = this.lastBySite.get(siteId);
    if (previous) return previous;
    const atLevel = shared.get(cacheKey(this.crs, defaultRuleSettings(settings.paranoia)))?.outcome;
    if (atLevel?.ok) return atLevel.waf;
    return this.forParanoia(1);
  }
}
