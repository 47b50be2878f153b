import type { AdminDependencies } from '../dependencies.js';
import type { RuleGroups } from '../../waf/rule-groups.js';

// The admin side's RuleGroups (validation, `rules show`, `rules exclude` replays), made on first
// use: the daemon should not pay for importing the engine before anyone asks. A new CRS directory
// (after a reload) gets a new one. It compiles without announcements; the edge compiles what it
// runs itself, sharing the same compiled sets in this process.
export type LazyRuleGroups = () => Promise<{ dir: string; groups: RuleGroups }>;

export function lazyRuleGroups(deps: Pick<AdminDependencies, 'status'>, warn: (message: string) => void): LazyRuleGroups {
  let made: { dir: string; groups: Promise<RuleGroups> } | null = null;
  return async () => {
    const dir = deps.status().crs.dir;
    if (made === null || made.dir !== dir) {
      made = {
        dir,
        groups: import('../../waf/rule-groups.js').then(({ RuleGroups, findCrs }) =>
          new RuleGroups(findCrs(dir), { prepareAnnounced: false, log: warn })),
      };
    }
    return { dir, groups: await made.groups };
  };
}
