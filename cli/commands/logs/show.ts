// wafctl logs show ID [--json] (GET /waf-logs/{id}): one request explained: every rule that
// matched it, with the matched variable and data. ID is an event id from `wafctl logs` or the
// request id printed on the block page.
import type { Command } from 'commander';
import { WafRequestDetailSchema } from '../../../shared/schemas/waf-request.js';
import { withContext, type CommandContext, type CommandDeps } from '../../context.js';
import { requestDetailText } from '../../request-detail-text.js';

export function registerLogsShow(logs: Command, deps: CommandDeps): void {
  logs
    .command('show')
    .description('one request explained: action, status, anomaly score and every rule that matched')
    .argument('<id>', 'an event id (from `wafctl logs`) or the request id on the block page')
    .addHelpText('after', '\nExamples:\n  wafctl logs show 141\n  wafctl logs show 9abeafa8-7907-49ea-bd85-fbc41ceab8df --json\n')
    .action(withContext(deps, (ctx, id: string) => runShow(ctx, id)));
}

async function runShow(ctx: CommandContext, id: string): Promise<void> {
  const api = await ctx.api();
  const detail = WafRequestDetailSchema.parse(await api.get<unknown>(`/waf-logs/${encodeURIComponent(id.trim())}`));
  ctx.out.data(detail, () => requestDetailText(detail));
}
