// `wafctl analytics --tui`: totals, then one panel: hourly charts of requests and blocks, or a top
// list (IPs, URI paths, rules, countries, statuses), polled from GET /analytics every `pollMs`
// (5 s by default; a top panel asks with `top=KIND` and as many rows as fit). Keys 1-4 switch
// 24h/7d/30d/90d, t/Tab and T the panel, r reloads, q quits. Everything is drawn to the
// terminal's size and redrawn on resize.
import { Box, Text, useApp, useInput } from 'ink';
import { useState } from 'react';
import { ANALYTICS_PERIODS, type Analytics, type AnalyticsPeriod, type AnalyticsWithTop } from '../../shared/schemas/management-api.js';
import { TOP_KINDS, TOP_LIMIT_MAX, type TopKind } from '../../shared/schemas/top-lists.js';
import { barRows, compact } from './bar-chart.js';
import { paletteFor, type Palette } from './palette.js';
import { usePoll } from './use-poll.js';
import { useTerminalSize } from './use-terminal-size.js';
import { TopPanel } from './TopPanel.js';
import { describeError, type ViewApi } from './view-api.js';

export const ANALYTICS_POLL_MS = 5000;

export interface AnalyticsViewProps {
  api: ViewApi;
  colour: boolean;
  period?: AnalyticsPeriod;
  /** The panel to open on: a top list, or the charts when absent. */
  top?: TopKind;
  pollMs?: number;
}

/** The panels in the order t/Tab walks them. */
export const ANALYTICS_PANELS = ['charts', ...TOP_KINDS] as const;
export type AnalyticsPanel = (typeof ANALYTICS_PANELS)[number];

/** Rows taken by everything but the panel's charts or rows. */
const CHROME_ROWS = 9;
/** A top panel's own lines above its rows: the summary and the column headers. */
const TOP_PANEL_HEAD = 2;

export function blockRate(data: Pick<Analytics, 'total_requests' | 'requests_blocked'>): string {
  const rate = data.total_requests === 0 ? 0 : (100 * data.requests_blocked) / data.total_requests;
  return `${rate.toFixed(rate < 10 ? 2 : 1)}%`;
}

export function AnalyticsView({ api, colour, period: initial = '24h', top, pollMs = ANALYTICS_POLL_MS }: AnalyticsViewProps) {
  const { exit } = useApp();
  const size = useTerminalSize();
  const palette = paletteFor(colour);
  const [period, setPeriod] = useState<AnalyticsPeriod>(initial);
  const [panel, setPanel] = useState<AnalyticsPanel>(top ?? 'charts');
  const free = Math.max(3, size.rows - CHROME_ROWS);
  // Rows asked for are what fits at the current size; a resize asks again.
  const limit = Math.min(TOP_LIMIT_MAX, Math.max(1, free - TOP_PANEL_HEAD));
  const polled = usePoll<Analytics | AnalyticsWithTop>(
    () => api.get('/analytics', panel === 'charts' ? { period } : { period, top: panel, limit }),
    `${period}:${panel}:${panel === 'charts' ? '' : limit}`,
    pollMs,
  );

  useInput((input, key) => {
    const step = (by: number) => setPanel((p) => ANALYTICS_PANELS[(ANALYTICS_PANELS.indexOf(p) + by + ANALYTICS_PANELS.length) % ANALYTICS_PANELS.length]);
    if (input === 'q') exit();
    else if (input === 'r') polled.reload();
    else if (/^[1-4]$/.test(input)) setPeriod(ANALYTICS_PERIODS[Number(input) - 1]);
    else if (input === 'T' || (key.tab && key.shift)) step(-1);
    else if (input === 't' || key.tab) step(1);
  });

  // Data of another period or panel may still be on screen while the new one loads: say so rather than mislabel it.
  const answer = polled.data?.period === period ? polled.data : undefined;
  const topList = (answer as Partial<AnalyticsWithTop> | undefined)?.top;
  const data = answer && (panel === 'charts' ? topList === undefined : topList?.kind === panel) ? answer : undefined;
  const updated = polled.at ? polled.at.toISOString().slice(11, 19) : '--:--:--';
  const requestRows = Math.min(10, Math.max(2, Math.floor((free * 2) / 3)));
  const blockedRows = Math.min(5, Math.max(1, free - requestRows));
  const width = Math.max(10, size.columns - 1);

  return (
    <Box flexDirection="column" width={size.columns}>
      <Text wrap="truncate">
        <Text bold>{`Analytics · ${period}`}</Text>
        {` · updated ${updated} UTC, every ${pollMs / 1000} s  `}
        {ANALYTICS_PERIODS.map((p, i) => (
          <Text key={p} bold={p === period} color={p === period ? palette.accent : palette.muted}>
            {`${p === period ? '›' : ' '}${i + 1} ${p} `}
          </Text>
        ))}
      </Text>
      <Text wrap="truncate">
        {ANALYTICS_PANELS.map((p) => (
          <Text key={p} bold={p === panel} color={p === panel ? palette.accent : palette.muted}>
            {`${p === panel ? '›' : ' '}${p} `}
          </Text>
        ))}
      </Text>
      {polled.error !== undefined && (
        <Text wrap="truncate" color={palette.danger}>
          {`error: ${describeError(polled.error)} (retrying every ${pollMs / 1000} s)`}
        </Text>
      )}
      {data ? (
        <Box flexDirection="column">
          <Totals data={data} palette={palette} />
          {topList && panel !== 'charts' ? <TopPanel list={topList} palette={palette} columns={width} /> : <Charts data={data} palette={palette} width={width} requestRows={requestRows} blockedRows={blockedRows} />}
        </Box>
      ) : (
        <Text color={palette.muted}>{polled.error === undefined ? 'loading…' : ''}</Text>
      )}
      <Text wrap="truncate" color={palette.muted}>
        1-4 period (24h 7d 30d 90d) · t/Tab T panel · r refresh · q quit
      </Text>
    </Box>
  );
}

function Totals({ data, palette }: { data: Analytics; palette: Palette }) {
  return (
    <Text wrap="truncate">
      {`requests ${data.total_requests.toLocaleString('en-US')} · unique visitors ${data.unique_visitors.toLocaleString('en-US')} · `}
      <Text color={data.requests_blocked > 0 ? palette.danger : undefined}>{`blocked ${data.requests_blocked.toLocaleString('en-US')} (${blockRate(data)})`}</Text>
    </Text>
  );
}

function Charts({ data, palette, width, requestRows, blockedRows }: { data: Analytics; palette: Palette; width: number; requestRows: number; blockedRows: number }) {
  const requests = data.hourly_data.map((h) => h.requests);
  const blocked = data.hourly_data.map((h) => h.blocked);
  const first = data.hourly_data[0]?.hour;
  const last = data.hourly_data[data.hourly_data.length - 1]?.hour;
  const label = (hour: string | undefined) => (hour ? hour.replace('T', ' ').slice(0, 16) : '?');
  return (
    <Box flexDirection="column">
      <Text color={palette.muted}>{`requests / hour (max ${compact(Math.max(0, ...requests))})`}</Text>
      {barRows(requests, width, requestRows).map((line, i) => (
        <Text key={`r${i}`} color={palette.ok}>
          {line}
        </Text>
      ))}
      <Text color={palette.muted}>{`blocked / hour (max ${compact(Math.max(0, ...blocked))})`}</Text>
      {barRows(blocked, width, blockedRows).map((line, i) => (
        <Text key={`b${i}`} color={palette.danger}>
          {line}
        </Text>
      ))}
      <Text wrap="truncate" color={palette.muted}>{`${label(first)} … ${label(last)} UTC, ${data.hourly_data.length} hours`}</Text>
    </Box>
  );
}
