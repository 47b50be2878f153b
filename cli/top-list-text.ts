// The words and numbers of a top list, shared by `wafctl analytics --top` and the analytics view's
// panels so the two never disagree.
import type { TopKind } from '../shared/schemas/top-lists.js';

/** Header of the key column, and what is counted, per kind. */
export const TOP_LABELS: Record<TopKind, { key: string; counted: string; noun: string }> = {
  ips: { key: 'IP', counted: 'REQUESTS', noun: 'client IPs' },
  uris: { key: 'URI', counted: 'REQUESTS', noun: 'URI paths' },
  rules: { key: 'RULE', counted: 'EVENTS', noun: 'rules' },
  countries: { key: 'COUNTRY', counted: 'REQUESTS', noun: 'countries' },
  statuses: { key: 'STATUS', counted: 'REQUESTS', noun: 'statuses' },
};

/** The share of the period's total, as the table shows it. */
export function shareOf(count: number, total: number): string {
  if (total === 0) return '0%';
  const pct = (100 * count) / total;
  return `${pct.toFixed(pct < 10 ? 1 : 0)}%`;
}
