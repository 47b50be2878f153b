// `wafctl analytics --top KIND [--limit N]`: one top list of the period (GET /analytics?top=KIND),
// a table for humans and the list's items for --json (`[]` when the period had nothing).
import { InvalidArgumentError } from 'commander';
import { AnalyticsWithTopSchema, type AnalyticsPeriod } from '../../../shared/schemas/management-api.js';
import { TOP_LIMIT_MAX, type TopItem, type TopKind } from '../../../shared/schemas/top-lists.js';
import type { ApiClient } from '../../../shared/api-client/index.js';
import type { CommandContext } from '../../context.js';
import type { Column } from '../../table.js';
import { shareOf, TOP_LABELS } from '../../top-list-text.js';

/** --limit: 1 to 100, as the API takes; anything else is a usage error before a call is made. */
export function parseTopLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > TOP_LIMIT_MAX) throw new InvalidArgumentError(`must be a whole number from 1 to ${TOP_LIMIT_MAX}.`);
  return n;
}

export async function printTopList(ctx: CommandContext, api: Pick<ApiClient, 'get'>, period: AnalyticsPeriod, kind: TopKind, limit: number): Promise<void> {
  const { top } = AnalyticsWithTopSchema.parse(await api.get('/analytics', { period, top: kind, limit }));
  const labels = TOP_LABELS[kind];
  const columns: Column<TopItem>[] = [
    { header: labels.key, value: (i) => i.key },
    ...(kind === 'rules' ? [{ header: 'GROUP', value: (i: TopItem) => i.group ?? '-' }] : []),
    { header: labels.counted, value: (i) => i.count.toLocaleString('en-US'), align: 'right' },
    { header: 'SHARE', value: (i) => shareOf(i.count, top.total), align: 'right' },
    { header: 'BLOCKED', value: (i) => i.blocked.toLocaleString('en-US'), align: 'right' },
  ];
  ctx.out.list(top.items, columns, { empty: `no ${kind === 'rules' ? 'WAF events' : 'requests'} in ${period}` });
  if (top.items.length === 0 || ctx.out.json) return;
  ctx.out.info(`top ${top.items.length} of ${top.distinct.toLocaleString('en-US')} ${labels.noun}, ${period}, ${top.total.toLocaleString('en-US')} ${labels.counted.toLowerCase()}`);
  if (!top.exact) ctx.out.info('note: more distinct values than the daemon counts one by one: counts are lower bounds');
}
