// `wafctl logs --tui`: a live table of the site's WAF events, newest first. It polls GET /waf-logs
// every `pollMs` (2 s by default) for the page on screen; keys are in logs-keys.ts, layout in
// logs-layout.ts. An API error is shown in the view (under the last good page) and polling goes on.
// Enter opens the selected event's request explained (GET /waf-logs/{id}, as `wafctl logs show`).
import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { WafLogEntry, WafLogs } from '../../shared/schemas/management-api.js';
import { HelpPane } from './HelpPane.js';
import { LogDetail } from './LogDetail.js';
import { LogsFooter } from './LogsFooter.js';
import { changeIpRule, pendingText } from './ip-rule-change.js';
import { onLogsKey, type LogsNav } from './logs-keys.js';
import { groupCounts, logColumns, renderHeader, renderRow, visibleWindow } from './logs-layout.js';
import { paletteFor } from './palette.js';
import { usePoll } from './use-poll.js';
import { useRequestDetail } from './use-request-detail.js';
import { useTerminalSize } from './use-terminal-size.js';
import { describeError, type ViewApi } from './view-api.js';

export const LOGS_POLL_MS = 2000;

export interface LogsViewProps {
  api: ViewApi;
  colour: boolean;
  search?: string;
  perPage?: number;
  pollMs?: number;
  /** The country of an IP for the detail pane (geoip-country in the CLI), undefined when unknown. */
  countryOf?: (ip: string) => Promise<string | undefined>;
}

/** Rows used by everything but the table: header, column header, notice, footer, and one spare. */
const CHROME_ROWS = 5;
/** The detail pane's border (2), title and key line. */
const DETAIL_FRAME_ROWS = 4;

export function LogsView({ api, colour, search = '', perPage, pollMs = LOGS_POLL_MS, countryOf }: LogsViewProps) {
  const { exit } = useApp();
  const size = useTerminalSize();
  const palette = paletteFor(colour);
  // Fixed at start: a resize changes what shows, not which events the page holds.
  const [pageSize] = useState(() => perPage ?? Math.min(100, Math.max(10, size.rows - CHROME_ROWS)));
  const [nav, setNav] = useState<LogsNav>({ page: 1, totalPages: 1, search, selected: 0, count: 0, mode: { kind: 'list' } });
  const [notice, setNotice] = useState<{ text: string; bad: boolean }>();
  const [countries, setCountries] = useState<Record<string, string | undefined>>({});
  // The page as last shown, to find the selected event again when a poll brings a new page.
  const shownLogs = useRef<readonly WafLogEntry[]>([]);

  const polled = usePoll(
    () => api.get<WafLogs>('/waf-logs', { page: nav.page, per_page: pageSize, search: nav.search || undefined, include: 'action' }),
    `${nav.page}\u0000${nav.search}`,
    pollMs,
  );
  const logs = polled.data?.logs ?? [];
  const selected: WafLogEntry | undefined = logs[Math.min(nav.selected, logs.length - 1)];
  const detail = useRequestDetail(api, nav.mode.kind === 'detail' ? selected?.id : undefined);

  // New events push the page down: keep the cursor on the event it was on, not on the row number.
  // A layout effect, so the corrected cursor lands in the same frame as the new page.
  useLayoutEffect(() => {
    const data = polled.data;
    if (!data) return;
    const before = shownLogs.current;
    shownLogs.current = data.logs;
    setNav((n) => {
      const id = before[n.selected]?.id;
      const kept = id === undefined ? -1 : data.logs.findIndex((e) => e.id === id);
      const index = kept >= 0 ? kept : Math.min(n.selected, Math.max(0, data.logs.length - 1));
      return index === n.selected ? n : { ...n, selected: index };
    });
  }, [polled.data]);

  useEffect(() => {
    if (nav.mode.kind !== 'detail' || !selected || !countryOf || selected.client_ip in countries) return;
    const ip = selected.client_ip;
    countryOf(ip).then(
      (country) => setCountries((c) => ({ ...c, [ip]: country })),
      () => setCountries((c) => ({ ...c, [ip]: undefined })),
    );
  }, [nav.mode.kind, selected, countryOf, countries]);

  // Keys are read through a ref: Ink may keep the first handler it was given, and a handler that
  // closed over an old `nav` would act on a stale cursor.
  const latest = useRef({ nav, selected });
  latest.current = { nav: { ...nav, count: logs.length, totalPages: Math.max(1, polled.data?.pagination.total_pages ?? 1) }, selected };
  useInput((input, key) => {
    const { nav, selected } = latest.current;
    const [next, effect] = onLogsKey(nav, input, key, selected?.client_ip);
    if (next.page !== nav.page || next.search !== nav.search) shownLogs.current = [];
    // Keys typed faster than a render (a paste into the search) each build on the previous one.
    latest.current = { nav: next, selected };
    setNav(next);
    if (effect.kind === 'quit') exit();
    if (effect.kind === 'ip-rule') {
      setNotice({ text: pendingText(effect), bad: false });
      changeIpRule(api, effect, selected).then(
        (message) => setNotice({ text: message, bad: false }),
        (error: unknown) => setNotice({ text: `error: ${describeError(error)}`, bad: true }),
      );
    }
  });

  const pagination = polled.data?.pagination;
  const counts = groupCounts(logs);
  const tableRows = Math.max(1, size.rows - CHROME_ROWS);
  const window = visibleWindow(logs.length, nav.selected, tableRows);
  const columns = logColumns(logs.slice(window.from, window.to), size.columns);
  const updated = polled.at ? polled.at.toISOString().slice(11, 19) : '--:--:--';

  return (
    <Box flexDirection="column" width={size.columns}>
      <Text wrap="truncate" bold>
        {`WAF events · page ${pagination?.page ?? nav.page}/${Math.max(1, pagination?.total_pages ?? 1)} · ${pagination?.total ?? 0} total`}
        {nav.search ? ` · search ${JSON.stringify(nav.search)}` : ''}
        {counts.length > 0 ? ' · ' + counts.map(([g, n]) => `${g} ${n}`).join(' · ') : ''}
        {` · updated ${updated} UTC, every ${pollMs / 1000} s`}
      </Text>
      {polled.error !== undefined && (
        <Text wrap="truncate" color={palette.danger}>
          {`error: ${describeError(polled.error)} (retrying every ${pollMs / 1000} s)`}
        </Text>
      )}
      {nav.mode.kind === 'help' ? (
        <HelpPane palette={palette} pollSeconds={pollMs / 1000} />
      ) : nav.mode.kind === 'detail' && selected && detail ? (
        <LogDetail entry={selected} state={detail} country={countries[selected.client_ip]} palette={palette} maxLines={size.rows - CHROME_ROWS - DETAIL_FRAME_ROWS} />
      ) : logs.length === 0 ? (
        <Text color={palette.muted}>
          {polled.data === undefined ? (polled.error === undefined ? 'loading…' : '') : nav.search ? `no WAF events match ${JSON.stringify(nav.search)}` : 'no WAF events yet'}
        </Text>
      ) : (
        <Box flexDirection="column">
          <Text wrap="truncate" color={palette.muted}>
            {'  ' + renderHeader(columns)}
          </Text>
          {logs.slice(window.from, window.to).map((entry, i) => {
            const isSelected = window.from + i === nav.selected;
            return (
              <Text key={entry.id} wrap="truncate" inverse={colour && isSelected}>
                {(isSelected ? '› ' : '  ') + renderRow(entry, columns)}
              </Text>
            );
          })}
        </Box>
      )}
      {notice && (
        <Text wrap="truncate" color={notice.bad ? palette.danger : palette.ok}>
          {notice.text}
        </Text>
      )}
      <LogsFooter mode={nav.mode} palette={palette} />
    </Box>
  );
}
