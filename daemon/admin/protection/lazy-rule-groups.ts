import type { AdminDependencies } from '../dependencies.js';
import type { RuleGroups } from '../../rule-sets/rule-groups.js';

// The admin side's RuleGroups (validation, `rules show`, `rules exclude` replays), made on first
// use: the daemon should not pay for importing the engine before anyone asks. A new CRS directory
// (after a reload) or other installed plugins get a new one. It compiles without announcements; the edge compiles what it
// runs itself, sharing the same compiled sets in this process.
export type LazyRuleGroups = () => Promise<{ dir: string; groups: RuleGroups }>;

export function lazyRuleGroups(deps: Pick<AdminDependencies, 'status' | 'crsPlace'>, warn: (message: string) => void): LazyRuleGroups {
  let made: { key: string; groups: Promise<RuleGroups> } | null = null;
  return async () => {
    const place = deps.crsPlace?.() ?? { dir: deps.status().crs.dir, pluginDirs: [], pluginDigest: '' };
    const { dir } = place;
    // Installed CRS plugins count too: `crs plugin add` then a reload means other rule sets here as well.
    const key = `${dir}|${place.pluginDigest}`;
    if (made === null || made.key !== key) {
      made = {
        key,
        groups: import('../../rule-sets/rule-groups.js').then(({ RuleGroups, findCrs }) =>
          new RuleGroups(findCrs(dir, place.pluginDirs), { prepareAnnounced: false, log: warn })),
      };
    }
    return { dir, groups: await made.groups };
  };
}
