// Starting and stopping the daemon process, as the `daemon` commands need it. The real
// implementation (main.ts) wraps shared/daemon-launcher.ts; tests substitute their own.
import type { DaemonStatusView } from './admin-api.js';

export type StartResult = { ok: true; status: DaemonStatusView } | { ok: false; reason: string };
export type StopResult = { ok: true; pid?: number } | { ok: false; reason: string; notRunning?: boolean };

export interface DaemonControl {
  /** Starts the daemon in the background; resolves once every listener is up, or with its reason. */
  startInBackground(daemonArgv: string[], options: { dataDir: string }): Promise<StartResult>;
  /** Runs the daemon attached to this terminal (systemd, containers); resolves with its exit code. */
  runInForeground(daemonArgv: string[]): Promise<number>;
  /** Asks the daemon to stop gracefully; resolves once it has exited. */
  stop(options: { dataDir: string }): Promise<StopResult>;
}
