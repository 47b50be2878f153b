// wafctl daemon status: what the running daemon says about itself over the admin socket.
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { warnWithoutCrs } from './crs-line.js';
import { statusFields } from './status-fields.js';
import { warnWriteFailures } from './write-failures.js';

export function registerDaemonStatus(daemon: Command, deps: CommandDeps): void {
  daemon
    .command('status')
    .description('show pid, version, uptime, ports, data dir, api_url, ca_file, sites, the Core Rule Set and the edge load')
    .addHelpText('after', '\nExample:\n  wafctl daemon status --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const status = await ctx.admin().status();
        ctx.out.fields(statusFields(status), status);
        warnWithoutCrs(ctx, status.crs);
        warnWriteFailures(ctx, status);
      }),
    );
}
