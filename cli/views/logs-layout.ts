// Pure layout for the logs view: which rows fit, how wide each column is, counts per group. The
// URI column takes what the terminal leaves; every other column has a cap, so a resize only
// changes how much of the URI shows.
import type { WafLogEntry } from '../../shared/schemas/management-api.js';

export interface LogColumn {
  header: string;
  width: number;
  value(entry: WafLogEntry): string;
}

const SELECT_MARK = 2; // "› " or "  "

export function shortTime(iso: string): string {
  // 2026-11-22T06:01:02.345Z -> 2026-11-22 06:01:02
  return iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '');
}

export function fit(text: string, width: number): string {
  const chars = [...text];
  if (width <= 0) return '';
  if (chars.length <= width) return text + ' '.repeat(width - chars.length);
  return chars.slice(0, Math.max(0, width - 1)).join('') + '…';
}

/** Columns for a terminal `columns` wide; widths depend on the entries shown, within caps. */
export function logColumns(entries: readonly WafLogEntry[], columns: number): LogColumn[] {
  const widest = (pick: (e: WafLogEntry) => string, min: number, cap: number) =>
    Math.min(cap, Math.max(min, ...entries.map((e) => [...pick(e)].length)));
  const fixed: LogColumn[] = [
    { header: 'TIME', width: 19, value: (e) => shortTime(e.event_timestamp) },
    // blocked / detected / challenged / rate-limited: a detect-mode row must not look like a block.
    { header: 'ACTION', width: widest((e) => e.action ?? '-', 6, 12), value: (e) => e.action ?? '-' },
    { header: 'IP', width: widest((e) => e.client_ip, 2, 39), value: (e) => e.client_ip },
    { header: 'RULE', width: widest((e) => e.waf_rule_id, 4, 10), value: (e) => e.waf_rule_id },
    { header: 'GROUP', width: widest((e) => e.group, 5, 8), value: (e) => e.group },
    { header: 'HOST', width: widest((e) => e.host, 4, 28), value: (e) => e.host },
  ];
  const used = SELECT_MARK + fixed.reduce((sum, c) => sum + c.width + 1, 0);
  const uri = Math.max(3, columns - used - 1);
  // On a very narrow terminal drop HOST before the URI becomes unreadable.
  const host = fixed.length - 1;
  if (uri < 12 && columns - used + fixed[host].width + 1 >= 12) return [...fixed.slice(0, host), uriColumn(columns - used + fixed[host].width)];
  return [...fixed, uriColumn(uri)];
}

function uriColumn(width: number): LogColumn {
  return { header: 'URI', width: Math.max(3, width), value: (e) => e.uri };
}

export function renderRow(entry: WafLogEntry, columns: readonly LogColumn[]): string {
  return columns.map((c) => fit(c.value(entry), c.width)).join(' ').trimEnd();
}

export function renderHeader(columns: readonly LogColumn[]): string {
  return columns.map((c) => fit(c.header, c.width)).join(' ').trimEnd();
}

/** The slice of a page that fits `height` rows, keeping the selected entry in view. */
export function visibleWindow(count: number, selected: number, height: number): { from: number; to: number } {
  const rows = Math.max(1, height);
  if (count <= rows) return { from: 0, to: count };
  const from = Math.min(Math.max(0, selected - Math.floor(rows / 2)), count - rows);
  return { from, to: from + rows };
}

/** `crs 12 · cms 3`, most first, for the entries on screen. */
export function groupCounts(entries: readonly WafLogEntry[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.group, (counts.get(e.group) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
