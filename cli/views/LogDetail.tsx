// The detail pane of one WAF event: every field the API gave (in its order, so a field added to
// the API shows up without a change here), with the client IP's country beside it.
import { Box, Text } from 'ink';
import type { WafLogEntry } from '../../shared/schemas/management-api.js';
import type { Palette } from './palette.js';

export interface LogDetailProps {
  entry: WafLogEntry;
  country?: string;
  palette: Palette;
}

export function LogDetail({ entry, country, palette }: LogDetailProps) {
  const fields = Object.entries(entry as unknown as Record<string, unknown>);
  const width = Math.max(...fields.map(([name]) => name.length), 'country'.length);
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      <Text bold color={palette.accent}>
        WAF event {entry.id}
      </Text>
      {fields.map(([name, value]) => (
        <Box key={name}>
          <Text color={palette.muted}>{name.padEnd(width)} </Text>
          <Text wrap="wrap">{typeof value === 'string' ? value : JSON.stringify(value)}</Text>
        </Box>
      ))}
      <Box>
        <Text color={palette.muted}>{'country'.padEnd(width)} </Text>
        <Text>{country ?? 'unknown'}</Text>
      </Box>
      <Text color={palette.muted}>b blacklist IP · w whitelist IP · Esc/Enter back · q quit</Text>
    </Box>
  );
}
