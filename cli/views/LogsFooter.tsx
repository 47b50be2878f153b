// The last line of the logs view: the search being typed, the y/n question, or the key summary.
import { Text } from 'ink';
import type { LogsMode } from './logs-keys.js';
import type { Palette } from './palette.js';

export function LogsFooter({ mode, palette }: { mode: LogsMode; palette: Palette }) {
  if (mode.kind === 'search') {
    return (
      <Text wrap="truncate" color={palette.accent}>
        {`search: ${mode.draft}▏  (Enter apply · Esc cancel · empty clears)`}
      </Text>
    );
  }
  if (mode.kind === 'confirm') {
    return (
      <Text wrap="truncate" bold color={mode.list === 'blacklist' ? palette.danger : palette.warn}>
        {mode.op === 'add' ? `${mode.list === 'blacklist' ? 'Blacklist' : 'Whitelist'} ${mode.ip}? y/n` : `Remove ${mode.ip} from the ${mode.list}? y/n`}
      </Text>
    );
  }
  return (
    <Text wrap="truncate" color={palette.muted}>
      ↑↓/jk move · Enter detail · / search · i IP's events · n/p page · b/w black/whitelist IP · B/W remove · ? help · q quit
    </Text>
  );
}
