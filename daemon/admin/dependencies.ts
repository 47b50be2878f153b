import type { CrsReloaded, DaemonStatus } from '../../shared/schemas/admin.js';
import type { ConfigStore } from '../store/config/config-store.js';

// What the admin socket needs from the running daemon; daemon/app.ts provides it.

export interface AdminDependencies {
  store: ConfigStore;
  now(): Date;
  status(): DaemonStatus;
  /** Re-reads config.json and daemon.json; the running config stays when either is invalid. */
  reload(): Promise<{ ok: true; crs?: CrsReloaded } | { ok: false; message: string }>;
  /**
   * Re-reads the CRS selection and the installed CRS plugins and, when they changed, moves every
   * site to rule sets built from them; resolves once the edge runs them. Absent: a daemon without it.
   */
  reloadCrs?(): Promise<CrsReloaded>;
  /** Where the edge's CRS rules and installed plugins are (validation and `rules show` compile the same). Absent: status().crs.dir alone. */
  crsPlace?(): { dir: string; pluginDirs: string[]; pluginDigest: string };
  /** Starts a graceful stop after the current response has been sent. */
  requestShutdown(reason: string): void;
}
