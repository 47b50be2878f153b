// The detail pane of one WAF event: the request it belongs to, explained exactly as
// `wafctl logs show` prints it (request-detail-text.ts), with loading and error states. On an
// error (an older daemon without GET /waf-logs/{id}, the API unreachable) the row's own fields
// still show, so the pane is never empty.
import { Box, Text } from 'ink';
import type { WafLogEntry } from '../../shared/schemas/management-api.js';
import { requestDetailText } from '../request-detail-text.js';
import type { Palette } from './palette.js';
import type { RequestDetailState } from './use-request-detail.js';
import { describeError } from './view-api.js';

export interface LogDetailProps {
  entry: WafLogEntry;
  state: RequestDetailState;
  /** The client's country from the CLI's geoip database: used when the event stored none. */
  country?: string;
  palette: Palette;
  /** Lines of text that fit; the rest is cut with a pointer to `wafctl logs show`. */
  maxLines: number;
}

export function LogDetail({ entry, state, country, palette, maxLines }: LogDetailProps) {
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      <Text bold color={palette.accent}>
        WAF event {entry.id}
      </Text>
      {state.kind === 'loading' && <Text color={palette.muted}>loading the request…</Text>}
      {state.kind === 'error' && <ErrorBody entry={entry} error={state.error} palette={palette} />}
      {state.kind === 'ready' && <TextBody text={requestDetailText({ ...state.detail, country: state.detail.country ?? country ?? null })} id={entry.id} maxLines={maxLines} />}
      <Text color={palette.muted}>i this IP's events · b/w black/whitelist IP · B/W remove from black/whitelist · Esc/Enter back · q quit</Text>
    </Box>
  );
}

function TextBody({ text, id, maxLines }: { text: string; id: number; maxLines: number }) {
  const lines = text.trimEnd().split('\n');
  const room = Math.max(1, maxLines);
  const shown = lines.length <= room ? lines : lines.slice(0, room - 1);
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => (
        <Text key={i} wrap="truncate">
          {line === '' ? ' ' : line}
        </Text>
      ))}
      {shown.length < lines.length && <Text wrap="truncate">{`… ${lines.length - shown.length} more lines: wafctl logs show ${id}`}</Text>}
    </Box>
  );
}

function ErrorBody({ entry, error, palette }: { entry: WafLogEntry; error: unknown; palette: Palette }) {
  const fields = Object.entries(entry as unknown as Record<string, unknown>);
  const width = Math.max(...fields.map(([name]) => name.length));
  return (
    <Box flexDirection="column">
      <Text wrap="wrap" color={palette.danger}>{`error: ${describeError(error)}`}</Text>
      {fields.map(([name, value]) => (
        <Box key={name}>
          <Text color={palette.muted}>{name.padEnd(width)} </Text>
          <Text wrap="wrap">{typeof value === 'string' ? value : JSON.stringify(value)}</Text>
        </Box>
      ))}
    </Box>
  );
}
