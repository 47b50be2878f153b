import { createHash } from 'node:crypto';
import type { StoredSite, UserRuleFile } from '../../../shared/schemas/site.js';
import type { RulesView } from '../../../shared/schemas/site-settings.js';
import { ruleSettings, type WafRuleSettings } from '../../rule-sets/rule-settings.js';
import type { CrsLocation, RuleSetOutcome } from '../../rule-sets/rule-groups.js';

// User SecLang files of a site (`wafctl rules set|show`).
// Decision: the daemon stores each file's TEXT (with its path, digest and time), not only its path.
// What was validated is exactly what runs: editing or deleting the file later cannot change or break
// the site's rules behind the operator's back (a new version is applied with `rules set` again, and
// validated again); the text reaches edge workers inside the snapshot; config.json is a complete
// backup. The path is kept as the file's name in file:line messages and as the base directory of
// relative Include / @pmFromFile references, which are still read from disk when the rules load.

export function ruleFile(input: { path: string; text: string }, now: string): UserRuleFile {
  return { path: input.path, text: input.text, sha256: createHash('sha256').update(input.text).digest('hex'), set_at: now };
}

/** The engine settings a stored site compiles to (as from-config.ts hands them to the edge). */
export function siteRuleSettings(site: StoredSite): WafRuleSettings {
  const { waf } = site.protection;
  return ruleSettings({
    paranoia: waf.paranoia as 1 | 2 | 3 | 4,
    detectionParanoia: (waf.detection_paranoia ?? null) as 1 | 2 | 3 | 4 | null,
    inboundThreshold: waf.inbound_threshold,
    outboundThreshold: waf.outbound_threshold,
    groups: { cms: waf.groups.cms, crs: waf.groups.crs },
    blockUserEnumeration: waf.block_user_enumeration ?? true,
    before: waf.rules_before ? { name: waf.rules_before.path, text: waf.rules_before.text } : null,
    after: waf.rules_after ? { name: waf.rules_after.path, text: waf.rules_after.text } : null,
  });
}

function fileView(file: UserRuleFile | null | undefined): RulesView['before'] {
  if (!file) return null;
  return { path: file.path, sha256: file.sha256, set_at: file.set_at, lines: lineCount(file.text) };
}

export function rulesView(site: StoredSite, crs: { dir: string; location: CrsLocation | null; version?: string | null; plugins?: string[] }, outcome: RuleSetOutcome): RulesView {
  const { waf } = site.protection;
  return {
    site: site.domain,
    mode: waf.mode,
    paranoia: waf.paranoia,
    inbound_threshold: waf.inbound_threshold,
    outbound_threshold: waf.outbound_threshold,
    groups: { ...waf.groups },
    before: fileView(waf.rules_before),
    after: fileView(waf.rules_after),
    crs: { found: crs.location !== null, dir: crs.dir, rules_dir: crs.location?.rulesDir ?? null, setup_file: crs.location?.setupFile ?? null, version: crs.version ?? null, plugins: crs.plugins ?? [] },
    load: outcome.ok ? { ok: true, error: null, rules: outcome.rules } : { ok: false, error: outcome.error, rules: null },
  };
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}
