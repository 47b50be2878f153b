// wafctl logs [--search S] [--page N] [--per-page N] (GET /waf-logs). The live Ink view of issue 9
// builds on this; here: a table for humans, the API's data for --json.
import type { Command } from 'commander';
import type { WafLogEntry, WafLogs } from '../../../shared/schemas/management-api.js';
import { withContext, type CommandDeps } from '../../context.js';
import { parsePositiveInt } from '../../options.js';
import type { Column } from '../../table.js';

const columns: Column<WafLogEntry>[] = [
  { header: 'TIME', value: (e) => e.event_timestamp.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') },
  { header: 'IP', value: (e) => e.client_ip },
  { header: 'RULE', value: (e) => e.waf_rule_id, align: 'right' },
  { header: 'GROUP', value: (e) => e.group },
  { header: 'HOST', value: (e) => e.host },
  { header: 'URI', value: (e) => e.uri },
];

export function registerLogs(program: Command, deps: CommandDeps): void {
  program
    .command('logs')
    .description('WAF events of the site, newest first (management API)')
    .option('--search <text>', 'an IP or CIDR, a URI substring, a rule id or a group (cms, crs)')
    .option('--page <n>', 'page number, from 1', parsePositiveInt)
    .option('--per-page <n>', 'entries per page, 10 to 100 (default 50)', parsePositiveInt)
    .addHelpText('after', '\nExamples:\n  wafctl logs --search 942100\n  wafctl logs --search 203.0.113.0/24 --json | jq .logs\n')
    .action(
      withContext(deps, async (ctx, options: { search?: string; page?: number; perPage?: number }) => {
        const data = await (await ctx.api()).get<WafLogs>('/waf-logs', {
          search: options.search,
          page: options.page,
          per_page: options.perPage,
        });
        ctx.out.list(data.logs, columns, { empty: options.search ? `no WAF events match ${JSON.stringify(options.search)}` : 'no WAF events yet', json: data });
        const { page, total_pages: pages, total } = data.pagination;
        if (!ctx.out.json && total > 0) ctx.out.info(`page ${page} of ${pages} (${total} event${total === 1 ? '' : 's'})`);
      }),
    );
}
