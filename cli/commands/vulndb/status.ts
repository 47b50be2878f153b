// wafctl vulndb status: what the daemon's vulnerability database holds (admin socket).
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { NO_DATABASE_HINT, vulndbStatusFields } from './status-fields.js';

export function registerVulndbStatus(vulndb: Command, deps: CommandDeps): void {
  vulndb
    .command('status')
    .description('show the loaded vulnerability database: source, variant, records, skipped, sha256')
    .addHelpText('after', '\nExample:\n  wafctl vulndb status --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const status = await ctx.admin().vulndbStatus();
        ctx.out.fields(vulndbStatusFields(status), status);
        if (!status.loaded) ctx.out.info(`no vulnerability database is loaded: ${NO_DATABASE_HINT}`);
      }),
    );
}
