import { createHash } from 'node:crypto';

// The per-site settings that change what the engine compiles: paranoia levels, anomaly thresholds,
// rule groups and user SecLang files. Sites with equal settings share one compiled Waf, so each
// combination has a `key` (a digest of everything that goes into the compile) and, within one
// snapshot, one frozen object (the inspector's per-request lookup is by object identity).
// No engine import here: the snapshot builds these without loading the engine.

export interface UserRuleSource {
  /** Absolute path the text was read from: its name in file:line errors, the base of relative Includes. */
  readonly name: string;
  readonly text: string;
}

export interface WafRuleSettings {
  readonly key: string;
  readonly paranoia: 1 | 2 | 3 | 4;
  /** Rules up to this level run and log without counting towards the block (>= paranoia). */
  readonly detectionParanoia: 1 | 2 | 3 | 4;
  readonly inboundThreshold: number;
  readonly outboundThreshold: number;
  readonly groups: { readonly cms: boolean; readonly crs: boolean };
  /** With the cms group on: its user-enumeration rules (200110-200112) run. */
  readonly blockUserEnumeration: boolean;
  readonly before: UserRuleSource | null;
  readonly after: UserRuleSource | null;
}

/** detectionParanoia absent or null: the same as paranoia (the site never set it apart). */
export type WafRuleSettingsInput = Omit<WafRuleSettings, 'key' | 'detectionParanoia' | 'blockUserEnumeration'> & {
  detectionParanoia?: 1 | 2 | 3 | 4 | null;
  /** Absent: true (the cms group's default). */
  blockUserEnumeration?: boolean;
};

export const DEFAULT_THRESHOLDS = { inbound: 5, outbound: 4 } as const;

export function ruleSettings(input: WafRuleSettingsInput): WafRuleSettings {
  const detectionParanoia = input.detectionParanoia ?? input.paranoia;
  const blockUserEnumeration = input.blockUserEnumeration ?? true;
  const digest = createHash('sha256').update(JSON.stringify([
    input.paranoia, detectionParanoia, input.inboundThreshold, input.outboundThreshold, input.groups.cms, input.groups.crs, blockUserEnumeration,
    input.before?.name ?? null, input.before?.text ?? null, input.after?.name ?? null, input.after?.text ?? null,
  ])).digest('hex').slice(0, 32);
  return Object.freeze({
    key: digest,
    paranoia: input.paranoia,
    detectionParanoia,
    inboundThreshold: input.inboundThreshold,
    outboundThreshold: input.outboundThreshold,
    groups: Object.freeze({ cms: input.groups.cms, crs: input.groups.crs }),
    blockUserEnumeration,
    before: input.before ? Object.freeze({ ...input.before }) : null,
    after: input.after ? Object.freeze({ ...input.after }) : null,
  });
}

const defaults = new Map<number, WafRuleSettings>();

/** The default settings at a paranoia level: both groups, CRS's default thresholds, no user files (one object per level). */
export function defaultRuleSettings(paranoia: 1 | 2 | 3 | 4 = 1): WafRuleSettings {
  let settings = defaults.get(paranoia);
  if (settings === undefined) {
    settings = ruleSettings({
      paranoia, inboundThreshold: DEFAULT_THRESHOLDS.inbound, outboundThreshold: DEFAULT_THRESHOLDS.outbound,
      groups: { cms: true, crs: true }, before: null, after: null,
    });
    defaults.set(paranoia, settings);
  }
  return settings;
}

/** The same settings without the user files: what a site runs when its files do not load. */
export function withoutUserFiles(settings: WafRuleSettings): WafRuleSettings {
  if (!settings.before && !settings.after) return settings;
  return ruleSettings({ ...settings, before: null, after: null });
}

/** Interns settings within one snapshot build: equal keys give the same object. */
export class RuleSettingsInterner {
  private readonly byKey = new Map<string, WafRuleSettings>();

  intern(input: WafRuleSettingsInput): WafRuleSettings {
    const made = ruleSettings(input);
    const known = this.byKey.get(made.key);
    if (known) return known;
    this.byKey.set(made.key, made);
    return made;
  }

  all(): WafRuleSettings[] {
    return [...this.byKey.values()];
  }
}

// Snapshots announce their settings so rule sets are compiled when the configuration changes, not
// when a request first needs them (RuleGroups listens). A listener only warms a cache: nothing
// depends on it for correctness. A listener that subscribes after a snapshot was built (an edge
// worker builds its first snapshot before its rule groups) is handed the latest announcement.
type Listener = (settings: readonly WafRuleSettings[]) => void;
const listeners = new Set<WeakRef<Listener & object>>();
let latest: readonly WafRuleSettings[] = [];

export function announceRuleSettings(settings: readonly WafRuleSettings[]): void {
  latest = settings;
  for (const ref of listeners) {
    const listener = ref.deref();
    if (listener) listener(settings);
    else listeners.delete(ref);
  }
}

/** The settings the last snapshot named: what a switch to other CRS rules compiles before it swaps. */
export function latestRuleSettings(): readonly WafRuleSettings[] {
  return latest;
}

/** Held weakly: the caller keeps `listener` alive for as long as it wants announcements. */
export function onRuleSettingsAnnounced(listener: Listener): void {
  listeners.add(new WeakRef(listener));
  if (latest.length > 0) listener(latest);
}
