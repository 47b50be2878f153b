// wafctl analytics [--period 24h|7d|30d|90d] (GET /analytics): totals and an hourly chart for humans,
// the API's data for --json. The live Ink view of issue 9 builds on this.
import { Option, type Command } from 'commander';
import { ANALYTICS_PERIODS, type Analytics } from '../../../shared/schemas/management-api.js';
import { withContext, type CommandDeps } from '../../context.js';
import { sparkline } from './sparkline.js';

const LABEL_WIDTH = 18;

export function registerAnalytics(program: Command, deps: CommandDeps): void {
  program
    .command('analytics')
    .description('traffic and blocks of the site over a period (management API)')
    .addOption(new Option('--period <period>', 'the period to cover').choices([...ANALYTICS_PERIODS]).default('24h'))
    .addHelpText('after', '\nExamples:\n  wafctl analytics --period 7d\n  wafctl analytics --json | jq .requests_blocked\n')
    .action(
      withContext(deps, async (ctx, options: { period: string }) => {
        const data = await (await ctx.api()).get<Analytics>('/analytics', { period: options.period });
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
      }),
    );
}
