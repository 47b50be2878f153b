// wafctl vulndb refresh: one refresh from the daemon's configured feed URL, now (admin socket).
// A failed refresh keeps the database; it is reported and the exit is 1.
import type { Command } from 'commander';
import { CliError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';
import { vulndbStatusFields } from './status-fields.js';

export function registerVulndbRefresh(vulndb: Command, deps: CommandDeps): void {
  vulndb
    .command('refresh')
    .description("refresh the vulnerability database from the daemon's configured feed URL now")
    .addHelpText('after', '\nExample:\n  wafctl vulndb refresh\n')
    .action(
      withContext(deps, async (ctx) => {
        // No refresh URL configured: refresh_not_configured, with its hint (cli/error-mapping.ts).
        const status = await ctx.admin().vulndbRefresh();
        ctx.out.fields(vulndbStatusFields(status), status);
        const result = status.refresh?.last_result ?? null;
        if (result === 'failed') {
          throw new CliError('refresh_failed', `${status.refresh?.last_error ?? 'the refresh failed'}; the database was kept`);
        }
        ctx.out.info(result === 'not_modified' ? 'the feed has not changed since the last import' : 'the vulnerability database was refreshed');
      }),
    );
}
