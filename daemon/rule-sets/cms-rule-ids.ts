// The cms group's rule ids (our WordPress rules, cms/wordpress.conf): 200100-200999. 200000-200004 are
// ModSecurity's own base rules (base-settings.conf), not ours. One place for the edge's events and
// for ingested events, which carry a rule id and a file but no group.
const CMS_FIRST_ID = 200100;
const CMS_LAST_ID = 200999;

export function isCmsRuleId(id: number): boolean {
  return Number.isInteger(id) && id >= CMS_FIRST_ID && id <= CMS_LAST_ID;
}
