// DaemonControl over shared/daemon-launcher.ts (the daemon side's contract:
// startDaemonInBackground, stopDaemon, readDaemonStatus).
import type { DaemonControl, StartResult, StopResult } from './daemon-control.js';
import { runDaemonInForeground } from './foreground.js';

interface LauncherModule {
  startDaemonInBackground(argv: string[], opts: { dataDir: string }): Promise<StartResult>;
  stopDaemon(opts: { dataDir: string }): Promise<StopResult>;
}

// Loaded on first use so commands that never start or stop the daemon do not pay for it.
// (The specifier is a variable until shared/daemon-launcher.ts is committed by the daemon side.)
const LAUNCHER = '../shared/daemon-launcher.js';
const launcher = () => import(LAUNCHER) as Promise<LauncherModule>;

export function launcherControl(): DaemonControl {
  return {
    async startInBackground(argv, options) {
      return (await launcher()).startDaemonInBackground(argv, options);
    },
    runInForeground: runDaemonInForeground,
    async stop(options) {
      return (await launcher()).stopDaemon(options);
    },
  };
}
