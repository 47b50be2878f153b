// What a site's own rule files may not do although SecLang allows it, and what `wafctl rules set`
// refuses because it would silently change nothing.
//
// - SecRuleEngine: the site's mode is its `waf.mode` (`wafctl site set --mode`), which `site show`
//   and `rules show` report. A user file that set the engine itself would make them say "on" while
//   the WAF ran Off. Refused wherever the file is compiled (so a file stored before this check
//   stops loading, the site runs without it, and `rules show` and the daemon log say why).
// - A removal or update directive whose selector matches no rule defined above it
//   (`SecRuleUpdateTargetById 999999 "!ARGS:s"`, a mistyped id): ModSecurity loads it as a no-op,
//   so the exclusion never applies and nothing says so. Refused by `rules set` only, since whether
//   it matches depends on the site's other settings (a later `--group crs=off` must not stop the
//   site's own rules from loading).
import { dirname } from 'node:path';
import { SecLangError } from '../engine/seclang/errors.js';
import { loadConfigText } from '../engine/seclang/loader.js';
import type { Waf } from '../engine/waf.js';
import type { UserRuleSource, WafRuleSettings } from './rule-settings.js';

/** Throws SecLangError (file:line) when a user file, or a file it includes, sets SecRuleEngine. */
export function refuseEngineSwitch(source: UserRuleSource): void {
  for (const directive of loadConfigText(source.text, source.name, dirname(source.name))) {
    if (directive.name.toLowerCase() !== 'secruleengine') continue;
    throw new SecLangError(
      { file: directive.file, line: directive.line },
      'SecRuleEngine is the site\'s mode, which a rule file may not set: use `wafctl site set DOMAIN --mode on|detect|off` (DetectionOnly is detect), so that site show and rules show say what runs',
    );
  }
}

/** `file:line: reason` for the first directive of the site's own files that changed nothing, or
 *  null. `crsRuns`: whether the site's rule set has the Core Rule Set in it (else its ids are unknown). */
export function modifierWithoutEffect(waf: Waf, settings: WafRuleSettings, crsRuns: boolean): string | null {
  const noCrs = crsRuns ? '' : '; the Core Rule Set does not run for this site (not installed, or its group is off), so none of its rules can be excluded';
  const files = [
    { source: settings.before, hint: 'the --before file is read before the Core Rule Set and the cms rules are defined: exclusions of their rules go in the --after file' },
    { source: settings.after, hint: `check the id, tag or message (wafctl logs show ID names the rules that matched a request)${noCrs}` },
  ];
  for (const { location, directive } of waf.modifiersWithoutEffect) {
    const file = files.find((f) => f.source !== null && f.source.name === location.file);
    if (file === undefined) continue;
    return `${location.file}:${location.line}: ${directive} matches no rule defined above it, so it would change nothing; ${file.hint}`;
  }
  return null;
}
