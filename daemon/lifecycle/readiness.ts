import type { DaemonStatus } from '../../shared/schemas/admin.js';

// How a starting daemon tells `wafctl daemon start` that it is up: over the IPC channel the launcher
// opened (shared/daemon-launcher.ts), one message, then the channel is closed so the CLI can exit.
// Started by hand or with --foreground there is no channel: one line on stderr instead.

export type ReadinessMessage = { type: 'ready'; status: DaemonStatus } | { type: 'error'; message: string };

export function reportReady(status: DaemonStatus): void {
  if (process.send && process.connected) {
    send({ type: 'ready', status });
    detachFromLauncher();
  } else {
    process.stderr.write(`wafctl daemon ready: pid ${status.pid}, api ${status.api_url}, edge :${status.ports.edge}, admin ${status.admin_socket}\n`);
  }
}

export function reportFailure(message: string): Promise<void> {
  if (process.send && process.connected) return new Promise((resolve) => send({ type: 'error', message }, resolve));
  process.stderr.write(`error: ${message}\n`);
  return Promise.resolve();
}

function send(message: ReadinessMessage, done?: () => void): void {
  process.send!(message, undefined, {}, () => done?.());
}

// Once the launcher has gone, its end of our stderr pipe is closed: a stray warning written there
// must not turn into an EPIPE crash.
function detachFromLauncher(): void {
  process.stderr.on('error', () => undefined);
  process.stdout.on('error', () => undefined);
  setImmediate(() => {
    if (process.connected) process.disconnect();
  });
}
