// Ingested WAF events carry the rule file, not the group: derive it (spec 2.4 `group`).
// The CMS group is our own WordPress rule set (ids 200000-200999, files named cms-*.conf or under
// a `cms` folder); everything else is the core rule set.

export type RuleGroup = 'cms' | 'crs';

const CMS_FILE = /(^|[\\/])(cms[-_][^\\/]*|[^\\/]*wordpress[^\\/]*)$|[\\/]cms[\\/]/i;

export function ruleGroupOf(wafFile: string, ruleId: string): RuleGroup {
  const id = Number(ruleId);
  if (Number.isInteger(id) && id >= 200000 && id <= 200999) return 'cms';
  return CMS_FILE.test(wafFile) ? 'cms' : 'crs';
}
