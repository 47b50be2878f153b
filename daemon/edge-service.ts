import type { Logger } from 'pino';
import type { EdgeLoad } from '../shared/schemas/admin.js';
import type { CrsPlace } from './crs/active-crs.js';
import type { DaemonOptions } from './options/option-table.js';
import type { ConfigStore } from './store/config/config-store.js';
import type { ApiTls } from './tls/api-tls.js';

// The seam between the control plane (app.ts) and the data plane: app.ts builds the edge with an
// EdgeFactory, binds it, and closes it on stop. The edge reads config through store snapshots and
// store.onChange (immutable snapshots; changes apply without restart).

export interface EdgeContext {
  options: DaemonOptions;
  store: ConfigStore;
  logger: Logger;
  /** The API certificate; the edge may use it until it has per-site certificates. */
  tls: ApiTls;
  /** The Core Rule Set the edge starts with (crs/active-crs.ts); absent: options.crsDir with no installed plugins. */
  crs?: CrsPlace;
}

export interface EdgeService {
  /** Binds both edge ports (0: any free port) and returns the ports actually bound. */
  listen(host: string, ports: { edge: number; edgeTls: number }): Promise<{ edge: number; edgeTls: number }>;
  /** Stops accepting, drains in-flight requests for up to `drainMs`, then closes the rest. */
  close(drainMs: number): Promise<void>;
  /** Requests admitted and shed since the daemon started (`daemon status`); synchronous, cheap. null: no proxy edge. */
  load(): EdgeLoad | null;
  /**
   * Moves every site to rule sets built from other CRS rules (`wafctl daemon reload` after
   * `wafctl crs use` or `crs plugin add|remove`); resolves once every edge process runs them.
   * Absent: an edge without rule sets (tests of another data plane).
   */
  switchCrs?(crs: CrsPlace): Promise<void>;
}

export function startCrsOf(context: EdgeContext): CrsPlace {
  return context.crs ?? { dir: context.options.crsDir, pluginDirs: [] };
}

export type EdgeFactory = (context: EdgeContext) => EdgeService | Promise<EdgeService>;
