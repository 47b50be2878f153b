// How the daemon's Core Rule Set reads for a human: which release runs and from where, or, loudly,
// that none does (never "crs on" while nothing runs).
import type { CrsReloaded } from '../../../shared/schemas/admin.js';
import type { DaemonStatusView } from '../../admin-api.js';
import type { CommandContext } from '../../context.js';

/** What the warning needs: whether a rule set loads, and where the daemon looked. */
type CrsStatus = Pick<DaemonStatusView['crs'], 'found' | 'dir'>;

export const NO_RULE_SET_HINT = 'install one with `wafctl crs install` (offline: `wafctl crs install --from FILE`, or Debian\'s `apt-get install modsecurity-crs`) then run `wafctl daemon reload`';

export function crsLine(crs: DaemonStatusView['crs']): string {
  if (!crs.found) return `NO RULE SET: no Core Rule Set found (looked in ${crs.dir})`;
  return crs.version ? `CRS ${crs.version} (${crs.dir})` : `${crs.dir} (--crs-dir)`;
}

/** The warning on stderr, beside the field block, that the WAF runs without CRS (daemon start and
 *  status, site show, rules show: everywhere a user looks). */
export function warnWithoutCrs(ctx: CommandContext, crs: CrsStatus): void {
  if (crs.found) return;
  ctx.out.warn(`no rule set: the WAF runs without the Core Rule Set (looked in ${crs.dir}); ${NO_RULE_SET_HINT}`);
}

/** What a reload did to the rule set: the release the edge runs now (and its plugins), switched or not. */
export function crsReloadedLine(crs: CrsReloaded): string {
  const running = !crs.found ? `no Core Rule Set (looked in ${crs.dir})` : crs.version ? `CRS ${crs.version}` : `the CRS in ${crs.dir}`;
  const plugins = crs.plugins.length > 0 ? ` with plugins ${crs.plugins.join(', ')}` : '';
  return crs.switched ? `the edge now runs ${running}${plugins}` : `the edge runs ${running}${plugins} (unchanged)`;
}
