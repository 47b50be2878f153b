// DaemonControl over shared/daemon-launcher.ts (the daemon side's contract): background start with
// readiness over IPC, graceful stop over the admin socket; --foreground runs attached (foreground.ts).
import { startDaemonInBackground, stopDaemon } from '../shared/daemon-launcher.js';
import { adminSocketPath } from './admin-socket-path.js';
import type { DaemonControl } from './daemon-control.js';
import { runDaemonInForeground } from './foreground.js';
import type { Env } from './io.js';

export function launcherControl(env: Env): DaemonControl {
  return {
    startInBackground(argv) {
      return startDaemonInBackground(argv, { env: { ...env } });
    },
    runInForeground: (argv) => runDaemonInForeground(argv, env),
    async stop({ dataDir }) {
      const result = await stopDaemon(adminSocketPath(dataDir, env));
      if (result.ok) return result;
      return { ok: false, reason: result.reason, notRunning: result.code === 'daemon_unreachable' };
    },
  };
}
