// The `?` pane of the logs view: every key, one line each.
import { Box, Text } from 'ink';
import type { Palette } from './palette.js';

const KEYS: Array<[string, string]> = [
  ['↑ ↓  k j', 'move the selection'],
  ['Enter', 'the selected event\'s request explained, as `wafctl logs show` prints it'],
  ['/', 'search: an IP or CIDR, a URI substring, a rule id or a group (Enter applies, Esc cancels, empty clears)'],
  ['n  p', 'next / previous page'],
  ['b', 'blacklist the selected IP (asks y/n)'],
  ['w', 'whitelist the selected IP (asks y/n)'],
  ['B  W', 'remove the selected IP from the blacklist / whitelist (asks y/n)'],
  ['i', 'the selected IP\'s recent events (searches for it; / then Enter on an empty search clears it)'],
  ['?', 'this help (Esc or ? closes)'],
  ['q  Ctrl+C', 'quit'],
];

export function HelpPane({ palette, pollSeconds }: { palette: Palette; pollSeconds: number }) {
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      <Text bold color={palette.accent}>
        keys
      </Text>
      {KEYS.map(([keys, what]) => (
        <Box key={keys}>
          <Text color={palette.warn}>{keys.padEnd(11)}</Text>
          <Text wrap="wrap">{what}</Text>
        </Box>
      ))}
      <Text color={palette.muted}>New events are fetched every {pollSeconds} s (polling GET /waf-logs).</Text>
    </Box>
  );
}
