// How a command shows an Ink view: only on an interactive terminal (stdout and stdin both TTYs),
// in the alternate screen, and the terminal is given back (main screen, cursor, cooked mode) on
// quit, on Ctrl+C, on SIGTERM/SIGHUP and on an error. Commands get this injected, so their unit
// tests never touch a terminal; the real one is the only place that reaches for process streams.
import { createRequire } from 'node:module';
import type { ReactElement } from 'react';
import type { Io } from '../io.js';
import type { AnalyticsViewProps } from './AnalyticsView.js';
import type { LogsViewProps } from './LogsView.js';

export interface ViewLauncher {
  /** Whether a view can run: stdout is a terminal (io) and so is stdin (keys). */
  interactive(io: Io): boolean;
  /** Shows a view until it exits; rejects with the view's error after restoring the terminal. */
  showLogs(props: LogsViewProps): Promise<void>;
  showAnalytics(props: AnalyticsViewProps): Promise<void>;
  /** The country code of an IP, for the logs detail pane (undefined when unknown). */
  countryOf(ip: string): Promise<string | undefined>;
}

interface GeoDatabase {
  lookup(ip: string): { country?: string } | null;
}
let geoip: GeoDatabase | undefined;

const ENTER_ALT_SCREEN = '\u001b[?1049h';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';
const SHOW_CURSOR = '\u001b[?25h';

// Ink, React and the views are imported on first use: every other wafctl command starts without them.
async function run(view: ReactElement): Promise<void> {
  const { render } = await import('ink');
  const stdout = process.stdout;
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
  };
  stdout.write(ENTER_ALT_SCREEN);
  process.once('exit', restore);
  const instance = render(view, { exitOnCtrlC: true, patchConsole: true });
  // A signal ends the view like q does: unmount (Ink leaves raw mode), give the screen back, exit.
  const onSignal = (signal: NodeJS.Signals) => {
    instance.unmount();
    restore();
    process.exit(128 + (signal === 'SIGTERM' ? 15 : 1));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  try {
    await instance.waitUntilExit();
  } finally {
    instance.cleanup();
    restore();
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    process.off('exit', restore);
  }
}

export const inkLauncher: ViewLauncher = {
  interactive: (io) => io.isTTY && Boolean(process.stdin.isTTY),

  async showLogs(props) {
    const [{ createElement }, { LogsView }] = await Promise.all([import('react'), import('./LogsView.js')]);
    await run(createElement(LogsView, props));
  },

  async showAnalytics(props) {
    const [{ createElement }, { AnalyticsView }] = await Promise.all([import('react'), import('./AnalyticsView.js')]);
    await run(createElement(AnalyticsView, props));
  },

  async countryOf(ip) {
    // geoip-country's tables (tens of MB resident) are loaded only when a detail pane first asks.
    geoip ??= createRequire(import.meta.url)('geoip-country') as GeoDatabase;
    return geoip.lookup(ip)?.country || undefined;
  },
};
