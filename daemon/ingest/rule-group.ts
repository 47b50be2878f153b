// Ingested WAF events carry the rule file, not the group: derive it (spec 2.4 `group`).
// The CMS group is our own WordPress rule set (ids 200100-200999, files named cms-*.conf or under
// a `cms` folder); everything else is the core rule set.

import { isCmsRuleId } from '../rule-sets/cms-rule-ids.js';

export type RuleGroup = 'cms' | 'crs';

const CMS_FILE = /(^|[\\/])(cms[-_][^\\/]*|[^\\/]*wordpress[^\\/]*)$|[\\/]cms[\\/]/i;

// Shippers send a handful of rule file paths over and over; the pattern costs more than a lookup.
// Bounded: a sender of endless distinct paths only empties the memo now and then.
const groupOfFile = new Map<string, RuleGroup>();
const REMEMBERED_FILES = 1024;

export function ruleGroupOf(wafFile: string, ruleId: string): RuleGroup {
  if (isCmsRuleId(Number(ruleId))) return 'cms';
  let group = groupOfFile.get(wafFile);
  if (group === undefined) {
    group = CMS_FILE.test(wafFile) ? 'cms' : 'crs';
    if (groupOfFile.size >= REMEMBERED_FILES) groupOfFile.clear();
    groupOfFile.set(wafFile, group);
  }
  return group;
}
