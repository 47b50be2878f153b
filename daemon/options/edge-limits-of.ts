import type { EdgeLimits } from '../proxy/hardening/edge-limits.js';
import type { DaemonOptions } from './option-table.js';

// The edge hardening settings of the option table, in the edge's own shape (JSON-serialisable, so
// the same object goes to every --workers process).

export interface EdgeHardening {
  limits: EdgeLimits;
  maxBodyBytes: number;
  /** The WAF engine's time budget per request, ms (0: none). */
  wafTimeBudgetMs: number;
}

export function edgeHardeningOf(options: DaemonOptions): EdgeHardening {
  return {
    limits: {
      maxUriBytes: options.edgeMaxUriBytes,
      maxHeaderBytes: options.edgeMaxHeaderBytes,
      maxHeaders: options.edgeMaxHeaders,
      headerTimeoutMs: options.edgeHeaderTimeoutMs,
      bodyIdleTimeoutMs: options.edgeBodyIdleTimeoutMs,
      tunnelIdleTimeoutMs: options.edgeTunnelIdleTimeoutMs,
      maxInFlight: options.edgeMaxInFlight,
      shedLoopDelayMs: options.edgeShedLoopDelayMs,
      maxConnections: options.edgeMaxConnections,
    },
    maxBodyBytes: options.edgeMaxBodyBytes,
    wafTimeBudgetMs: options.wafTimeBudgetMs,
  };
}
