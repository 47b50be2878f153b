import type { DaemonStatus } from '../../shared/schemas/admin.js';
import type { ConfigStore } from '../store/config/config-store.js';

// What the admin socket needs from the running daemon; daemon/app.ts provides it.

export interface AdminDependencies {
  store: ConfigStore;
  now(): Date;
  status(): DaemonStatus;
  /** Re-reads config.json and daemon.json; the running config stays when either is invalid. */
  reload(): Promise<{ ok: true } | { ok: false; message: string }>;
  /** Starts a graceful stop after the current response has been sent. */
  requestShutdown(reason: string): void;
}
