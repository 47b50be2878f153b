// How `rules show` and `rules set` read for a human.
import type { RulesView } from '../../admin-api.js';

const onOff = (on: boolean) => (on ? 'on' : 'off');

export function rulesFields(view: RulesView): Array<[string, string]> {
  const file = (f: RulesView['before']) => (f ? `${f.path} (${f.lines} lines, set ${f.set_at})` : '-');
  return [
    ['site', view.site],
    ['mode', view.mode],
    ['paranoia', String(view.paranoia)],
    ['thresholds', `inbound ${view.inbound_threshold}, outbound ${view.outbound_threshold}`],
    // Never "crs on" while no rule set runs.
    ['groups', `crs ${view.groups.crs && !view.crs.found ? 'on, but NO RULE SET is installed' : onOff(view.groups.crs)}, cms ${onOff(view.groups.cms)}`],
    ['before crs', file(view.before)],
    ['after crs', file(view.after)],
    ['crs', view.crs.found ? `${view.crs.version ? `CRS ${view.crs.version}: ` : ''}found: ${view.crs.rules_dir} (setup ${view.crs.setup_file})${view.crs.plugins?.length ? `; plugins ${view.crs.plugins.join(', ')}` : ''}` : `not found in ${view.crs.dir}: the cms group runs alone`],
    ['loads', view.load.ok ? `yes, ${view.load.rules} rules` : `NO: ${view.load.error} (the site runs without its user files)`],
  ];
}
