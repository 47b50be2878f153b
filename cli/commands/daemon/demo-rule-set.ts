// `daemon start --demo` on a machine with no Core Rule Set: a newcomer's first command must give a
// real WAF, so the demo installs the newest CRS 4.x release (verified as `wafctl crs install`
// verifies it) and has the daemon switch to it. Offline, or when the release cannot be verified,
// it says in one line how to get one; the daemon runs either way (start warns that no rule set runs).
import type { CommandContext } from '../../context.js';
import { crsReloadedLine } from './crs-line.js';

export const OFFLINE_HINT = 'get one with `wafctl crs install --from FILE` (a coreruleset-<version>.tar.gz) or Debian\'s `apt-get install modsecurity-crs`, then `wafctl daemon reload`';

/** True when the daemon runs a rule set afterwards. */
export async function installRuleSetForDemo(ctx: CommandContext): Promise<boolean> {
  ctx.out.info('no Core Rule Set on this machine: installing the newest CRS 4.x release for the demo...');
  try {
    const report = await ctx.crs().install({});
    ctx.out.info(`installed CRS ${report.version} (${report.rules} rules load)`);
    const reloaded = await ctx.admin().reload();
    if (reloaded.crs) ctx.out.info(crsReloadedLine(reloaded.crs));
    return reloaded.crs?.found ?? false;
  } catch (error) {
    ctx.out.warn(`could not install a Core Rule Set (${(error as Error).message}); ${OFFLINE_HINT}`);
    return false;
  }
}
