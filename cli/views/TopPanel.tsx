// One top list of the analytics view (IPs, URI paths, rules, countries or statuses): a row per key
// with its count, share of the period, a bar of that share and the blocked count, fitted to the
// terminal's width. The rows the terminal has room for are what the view asks the API for.
import { Box, Text } from 'ink';
import type { TopItem, TopKind, TopList } from '../../shared/schemas/top-lists.js';
import { shareOf, TOP_LABELS } from '../top-list-text.js';
import type { Palette } from './palette.js';

const NUMBER_WIDTH = 9;
const SHARE_WIDTH = 6;
const BAR_WIDTH = 12;

/** The panel's key column width: what the terminal has left after the numbers and the bar. */
function keyWidth(kind: TopKind, columns: number): number {
  const fixed = NUMBER_WIDTH * 2 + SHARE_WIDTH + BAR_WIDTH + 5 + (kind === 'rules' ? 8 : 0);
  return Math.max(8, columns - fixed);
}

function fit(text: string, width: number): string {
  return text.length <= width ? text.padEnd(width) : `${text.slice(0, width - 1)}…`;
}

function bar(count: number, max: number): string {
  const cells = max === 0 ? 0 : Math.max(count > 0 ? 1 : 0, Math.round((BAR_WIDTH * count) / max));
  return '█'.repeat(cells).padEnd(BAR_WIDTH);
}

export function TopPanel({ list, palette, columns }: { list: TopList; palette: Palette; columns: number }) {
  const labels = TOP_LABELS[list.kind];
  const width = keyWidth(list.kind, columns);
  const max = list.items[0]?.count ?? 0;
  const num = (n: number | string) => (typeof n === 'number' ? n.toLocaleString('en-US') : n).padStart(NUMBER_WIDTH);
  // Key, group (rules), count and share; the bar and the blocked count follow in their own colours.
  const lead = (key: string, group: string, count: string, share: string) =>
    `${fit(key, width)} ${list.kind === 'rules' ? `${fit(group, 7)} ` : ''}${count} ${share.padStart(SHARE_WIDTH)} `;
  if (list.items.length === 0) {
    return <Text color={palette.muted}>{`no ${list.kind === 'rules' ? 'WAF events' : 'requests'} in this period`}</Text>;
  }
  return (
    <Box flexDirection="column">
      <Text color={palette.muted} wrap="truncate">
        {`top ${list.items.length} of ${list.distinct.toLocaleString('en-US')} ${labels.noun} · ${list.total.toLocaleString('en-US')} ${labels.counted.toLowerCase()}${list.exact ? '' : ' · counts are lower bounds'}`}
      </Text>
      <Text bold wrap="truncate">
        {`${lead(labels.key, 'GROUP', num(labels.counted), 'SHARE')}${''.padEnd(BAR_WIDTH)} ${num('BLOCKED')}`}
      </Text>
      {list.items.map((item: TopItem) => (
        <Text key={item.key} wrap="truncate">
          {lead(item.key, item.group ?? '-', num(item.count), shareOf(item.count, list.total))}
          <Text color={palette.accent}>{bar(item.count, max)}</Text>
          <Text color={item.blocked > 0 ? palette.danger : undefined}>{` ${num(item.blocked)}`}</Text>
        </Text>
      ))}
    </Box>
  );
}
