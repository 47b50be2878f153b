// wafctl logs [--search S] [--page N] [--per-page N] [--tui] [--follow] (GET /waf-logs);
// `wafctl logs show ID` is show.ts.
// On an interactive terminal, `--tui`, `--follow` or plain `wafctl logs` open the live Ink view
// (cli/views/LogsView.tsx); otherwise a table for humans, the API's data for --json, and with
// --follow new events as NDJSON (follow.ts).
import type { Command } from 'commander';
import type { WafLogEntry, WafLogs } from '../../../shared/schemas/management-api.js';
import { usageError } from '../../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { parsePositiveInt } from '../../options.js';
import { colourWanted } from '../../style.js';
import type { Column } from '../../table.js';
import { inkLauncher, type ViewLauncher } from '../../views/launcher.js';
import { followLogs } from './follow.js';
import { registerLogsShow } from './show.js';

const columns: Column<WafLogEntry>[] = [
  { header: 'TIME', value: (e) => e.event_timestamp.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') },
  // Not spec 2.4: the daemon adds it when asked (include=action); an older daemon leaves it out.
  { header: 'ACTION', value: (e) => e.action ?? '-' },
  { header: 'IP', value: (e) => e.client_ip },
  { header: 'RULE', value: (e) => e.waf_rule_id, align: 'right' },
  { header: 'GROUP', value: (e) => e.group },
  { header: 'HOST', value: (e) => e.host },
  { header: 'URI', value: (e) => e.uri },
];

interface LogsOptions {
  search?: string;
  page?: number;
  perPage?: number;
  tui?: boolean;
  follow?: boolean;
}

export function registerLogs(program: Command, deps: CommandDeps, views: ViewLauncher = inkLauncher): void {
  const logs = program
    .command('logs')
    .description('WAF events of the site, newest first (management API); live view on a terminal')
    .option('--search <text>', 'an IP or CIDR, a URI substring, a rule id, a group (cms, crs) or a request id')
    .option('--page <n>', 'page number, from 1', parsePositiveInt)
    .option('--per-page <n>', 'entries per page, 10 to 100 (default 50)', parsePositiveInt)
    .option('--tui', 'the live view (default for plain `wafctl logs` on a terminal); polls every 2 s')
    .option('--follow', 'keep printing new events: NDJSON when not a terminal, the live view on one')
    .addHelpText(
      'after',
      '\nExamples:\n  wafctl logs\n  wafctl logs --search 942100\n  wafctl logs show 141\n  wafctl logs --search 203.0.113.0/24 --json | jq .logs\n  wafctl logs --follow | jq -r .client_ip\n',
    )
    .action(withContext(deps, (ctx, options: LogsOptions) => runLogs(ctx, options, views)));
  registerLogsShow(logs, deps);
}

async function runLogs(ctx: CommandContext, options: LogsOptions, views: ViewLauncher): Promise<void> {
  if (options.follow && options.page !== undefined) throw usageError('--follow reads from the newest event; --page does not apply', 'drop --page');
  const interactive = !ctx.out.json && views.interactive(ctx.io);
  const plainFlags = options.search === undefined && options.page === undefined && options.perPage === undefined;
  const api = await ctx.api();
  if (interactive && (options.tui || options.follow || plainFlags)) {
    const colour = colourWanted({ isTTY: true, env: ctx.io.env, colorFlag: ctx.globals.color });
    await views.showLogs({ api, colour, search: options.search, perPage: options.perPage, countryOf: views.countryOf });
    return;
  }
  if (options.follow) {
    await followLogs(api, {
      search: options.search,
      write: (line) => ctx.io.stdout.write(line + '\n'),
      warn: (message) => ctx.out.warn(message),
      sleep: ctx.deps.sleep,
      stopped: () => false,
    });
    return;
  }
  if (options.tui && !ctx.out.json) ctx.out.info('note: --tui needs an interactive terminal (stdin and stdout); printing the table');
  const data = await api.get<WafLogs>('/waf-logs', { search: options.search, page: options.page, per_page: options.perPage, include: 'action' });
  const { page, total_pages: pages, total } = data.pagination;
  ctx.out.list(data.logs, columns, { empty: emptyMessage(options.search, page, pages, total), json: data });
  if (!ctx.out.json && data.logs.length > 0) ctx.out.info(`page ${page} of ${pages} (${total} event${total === 1 ? '' : 's'})`);
}

// Past the last page is not an error (exit 0, `[]`-like JSON): events expire and arrive, so a page
// that existed a moment ago may not now. The message says which it is and where the last page is.
function emptyMessage(search: string | undefined, page: number, pages: number, total: number): string {
  const events = `${total} event${total === 1 ? '' : 's'}`;
  if (total > 0) return `page ${page} is past the end: ${events}${search ? ` match ${JSON.stringify(search)}` : ''} on ${pages} page${pages === 1 ? '' : 's'} (the last is --page ${pages})`;
  return search ? `no WAF events match ${JSON.stringify(search)}` : 'no WAF events yet';
}
