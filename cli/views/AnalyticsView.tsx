// `wafctl analytics --tui`: totals and hourly charts of requests and blocks for a period, polled
// from GET /analytics every `pollMs` (5 s by default). Keys 1-4 switch 24h/7d/30d/90d, r reloads,
// q quits. Charts are drawn to the terminal's width and height and redrawn on resize.
import { Box, Text, useApp, useInput } from 'ink';
import { useState } from 'react';
import { ANALYTICS_PERIODS, type Analytics, type AnalyticsPeriod } from '../../shared/schemas/management-api.js';
import { barRows, compact } from './bar-chart.js';
import { paletteFor, type Palette } from './palette.js';
import { usePoll } from './use-poll.js';
import { useTerminalSize } from './use-terminal-size.js';
import { describeError, type ViewApi } from './view-api.js';

export const ANALYTICS_POLL_MS = 5000;

export interface AnalyticsViewProps {
  api: ViewApi;
  colour: boolean;
  period?: AnalyticsPeriod;
  pollMs?: number;
}

/** Rows taken by everything but the two charts. */
const CHROME_ROWS = 8;

export function blockRate(data: Pick<Analytics, 'total_requests' | 'requests_blocked'>): string {
  const rate = data.total_requests === 0 ? 0 : (100 * data.requests_blocked) / data.total_requests;
  return `${rate.toFixed(rate < 10 ? 2 : 1)}%`;
}

export function AnalyticsView({ api, colour, period: initial = '24h', pollMs = ANALYTICS_POLL_MS }: AnalyticsViewProps) {
  const { exit } = useApp();
  const size = useTerminalSize();
  const palette = paletteFor(colour);
  const [period, setPeriod] = useState<AnalyticsPeriod>(initial);
  const polled = usePoll(() => api.get<Analytics>('/analytics', { period }), period, pollMs);

  useInput((input) => {
    if (input === 'q') exit();
    else if (input === 'r') polled.reload();
    else if (/^[1-4]$/.test(input)) setPeriod(ANALYTICS_PERIODS[Number(input) - 1]);
  });

  // Data of another period may still be on screen while the new one loads: say so rather than mislabel it.
  const data = polled.data?.period === period ? polled.data : undefined;
  const updated = polled.at ? polled.at.toISOString().slice(11, 19) : '--:--:--';
  const free = Math.max(3, size.rows - CHROME_ROWS);
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
      {polled.error !== undefined && (
        <Text wrap="truncate" color={palette.danger}>
          {`error: ${describeError(polled.error)} (retrying every ${pollMs / 1000} s)`}
        </Text>
      )}
      {data ? <Body data={data} palette={palette} width={width} requestRows={requestRows} blockedRows={blockedRows} /> : <Text color={palette.muted}>{polled.error === undefined ? 'loading…' : ''}</Text>}
      <Text wrap="truncate" color={palette.muted}>
        1-4 period (24h 7d 30d 90d) · r refresh · q quit
      </Text>
    </Box>
  );
}

function Body({ data, palette, width, requestRows, blockedRows }: { data: Analytics; palette: Palette; width: number; requestRows: number; blockedRows: number }) {
  const requests = data.hourly_data.map((h) => h.requests);
  const blocked = data.hourly_data.map((h) => h.blocked);
  const first = data.hourly_data[0]?.hour;
  const last = data.hourly_data[data.hourly_data.length - 1]?.hour;
  const label = (hour: string | undefined) => (hour ? hour.replace('T', ' ').slice(0, 16) : '?');
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        {`requests ${data.total_requests.toLocaleString('en-US')} · unique visitors ${data.unique_visitors.toLocaleString('en-US')} · `}
        <Text color={data.requests_blocked > 0 ? palette.danger : undefined}>{`blocked ${data.requests_blocked.toLocaleString('en-US')} (${blockRate(data)})`}</Text>
      </Text>
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
