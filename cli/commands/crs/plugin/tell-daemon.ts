// After `crs plugin add|remove` the running daemon switches to the new plugin set through its admin
// socket at once (it answers once every site runs it), so a plugin takes effect without a separate
// step. No daemon running is fine: it loads the installed plugins when it starts.
import { WafctlError } from '../../../../shared/errors.js';
import type { CommandContext } from '../../../context.js';
import { crsReloadedLine } from '../../daemon/crs-line.js';

export async function tellDaemon(ctx: CommandContext): Promise<void> {
  try {
    const { crs } = await ctx.admin().reloadCrs();
    ctx.out.info(crsReloadedLine(crs));
    if (crs.found && crs.version === null && !crs.switched) ctx.out.info('(plugins load only under CRS 4)');
  } catch (error) {
    if (error instanceof WafctlError && error.code === 'daemon_unreachable') {
      ctx.out.info('no daemon is running here: it loads the installed plugins when it starts');
      return;
    }
    ctx.out.warn(`the daemon did not switch to the new plugins (${(error as Error).message}); run \`wafctl daemon reload\``);
  }
}
