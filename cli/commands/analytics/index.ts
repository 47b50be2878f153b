// wafctl analytics [--period 24h|7d|30d|90d] [--top KIND [--limit N]] [--tui] (GET /analytics):
// totals and an hourly chart for humans, the API's data for --json; with --top, one top list
// (top.ts). On an interactive terminal, `--tui` or plain `wafctl analytics` open the live Ink view
// (cli/views/AnalyticsView.tsx, refreshed every 5 s).
import { Option, type Command } from 'commander';
import { ANALYTICS_PERIODS, type Analytics, type AnalyticsPeriod } from '../../../shared/schemas/management-api.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { colourWanted } from '../../style.js';
import { TOP_KINDS, TOP_LIMIT_DEFAULT, TOP_LIMIT_MAX, type TopKind } from '../../../shared/schemas/top-lists.js';
import { usageError } from '../../cli-error.js';
import { inkLauncher, type ViewLauncher } from '../../views/launcher.js';
import { sparkline } from './sparkline.js';
import { parseTopLimit, printTopList } from './top.js';

const LABEL_WIDTH = 18;

interface AnalyticsOptions {
  period?: AnalyticsPeriod;
  top?: TopKind;
  limit?: number;
  tui?: boolean;
}

export function registerAnalytics(program: Command, deps: CommandDeps, views: ViewLauncher = inkLauncher): void {
  program
    .command('analytics')
    .description('traffic and blocks of the site over a period (management API); live view on a terminal')
    .addOption(new Option('--period <period>', 'the period to cover (default 24h)').choices([...ANALYTICS_PERIODS]))
    .addOption(new Option('--top <kind>', 'the most frequent client IPs, URI paths, rules, countries or statuses of the period').choices([...TOP_KINDS]))
    .option('--limit <n>', `rows of the --top list, 1 to ${TOP_LIMIT_MAX} (default ${TOP_LIMIT_DEFAULT})`, parseTopLimit)
    .option('--tui', 'the live view (default for plain `wafctl analytics` on a terminal); refreshes every 5 s')
    .addHelpText(
      'after',
      '\nExamples:\n  wafctl analytics --tui\n  wafctl analytics --period 7d\n  wafctl analytics --json | jq .requests_blocked\n  wafctl analytics --top ips --period 7d\n  wafctl analytics --top rules --limit 5 --json | jq -r \'.[].key\'\n',
    )
    .action(withContext(deps, (ctx, options: AnalyticsOptions) => runAnalytics(ctx, options, views)));
}

async function runAnalytics(ctx: CommandContext, options: AnalyticsOptions, views: ViewLauncher): Promise<void> {
  if (options.limit !== undefined && options.top === undefined) throw usageError('--limit applies to a --top list', 'add --top ips|uris|rules|countries|statuses');
  const api = await ctx.api();
  const period = options.period ?? '24h';
  // Like `wafctl logs`: the view for --tui or the bare command; any other flag asks for the summary.
  if (!ctx.out.json && views.interactive(ctx.io) && (options.tui || (options.period === undefined && options.top === undefined))) {
    const colour = colourWanted({ isTTY: true, env: ctx.io.env, colorFlag: ctx.globals.color });
    await views.showAnalytics({ api, colour, period, top: options.top });
    return;
  }
  if (options.tui && !ctx.out.json) ctx.out.info('note: --tui needs an interactive terminal (stdin and stdout); printing the summary');
  if (options.top !== undefined) {
    await printTopList(ctx, api, period, options.top, options.limit ?? TOP_LIMIT_DEFAULT);
    return;
  }
  const data = await api.get<Analytics>('/analytics', { period });
  const rate = data.total_requests === 0 ? 0 : (100 * data.requests_blocked) / data.total_requests;
  const width = Math.max(10, Math.min(data.hourly_data.length, (ctx.io.columns ?? 80) - LABEL_WIDTH - 2));
  ctx.out.fields(
    [
      ['period', data.period],
      ['requests', data.total_requests.toLocaleString('en-US')],
      ['unique visitors', data.unique_visitors.toLocaleString('en-US')],
      ['blocked', `${data.requests_blocked.toLocaleString('en-US')} (${rate.toFixed(rate < 10 ? 2 : 1)}%)`],
      ['requests / hour', sparkline(data.hourly_data.map((h) => h.requests), width)],
      ['blocked / hour', sparkline(data.hourly_data.map((h) => h.blocked), width)],
    ],
    data,
  );
}
