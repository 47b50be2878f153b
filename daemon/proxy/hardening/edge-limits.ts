import type { ServerOptions } from 'node:http';

// What the edge accepts from a client before any site logic runs: the size of a request head,
// how long a client may take to send it, how long a body may stall, and how much work one
// worker takes on at once. Defaults follow nginx where nginx has an equivalent (documented in
// SECURITY.md and README.md next to this folder); every one is a daemon option.

export interface EdgeLimits {
  /** Longest request target (path and query) in bytes; more: 414 (nginx: large_client_header_buffers 8k). */
  maxUriBytes: number;
  /** Header fields of one request, names and values together; more: 431 (nginx: 4 x 8k buffers). */
  maxHeaderBytes: number;
  /** Number of header fields; more: 431 (Apache's LimitRequestFields). */
  maxHeaders: number;
  /** The whole request head must arrive within this many ms; else 408 and the socket is closed (slowloris). */
  headerTimeoutMs: number;
  /** A request body that sends nothing for this long is cut: 408 if no answer started, socket closed (nginx: client_body_timeout 60 s). */
  bodyIdleTimeoutMs: number;
  /** An upgraded connection (WebSocket tunnel) with no byte either way for this long is closed, and its origin connection with it (nginx: proxy_read_timeout 60 s). */
  tunnelIdleTimeoutMs: number;
  /** Requests one worker handles at once; more get 503 + Retry-After. 0: unbounded. */
  maxInFlight: number;
  /** Shed with 503 a request that waited on a stalled event loop longer than this (ms; the worker is out of CPU). 0: off. */
  shedLoopDelayMs: number;
  /** Open client connections per listener and worker; more are closed on accept. 0: unbounded. */
  maxConnections: number;
}

export const DEFAULT_EDGE_LIMITS: Readonly<EdgeLimits> = Object.freeze({
  maxUriBytes: 8192,
  maxHeaderBytes: 32768,
  maxHeaders: 100,
  headerTimeoutMs: 20_000,
  bodyIdleTimeoutMs: 60_000,
  tunnelIdleTimeoutMs: 60_000,
  maxInFlight: 1024,
  shedLoopDelayMs: 500,
  maxConnections: 20_000,
});

/** The defaults with what is set in `partial` (undefined fields keep their default). */
export function edgeLimits(partial: Partial<EdgeLimits> = {}): EdgeLimits {
  const limits: EdgeLimits = { ...DEFAULT_EDGE_LIMITS };
  for (const key of Object.keys(limits) as Array<keyof EdgeLimits>) {
    const value = partial[key];
    if (value !== undefined) limits[key] = value;
  }
  return limits;
}

/**
 * node:http settings that enforce the limits inside the parser (llhttp). Node counts the request
 * line and the headers together against maxHeaderSize, so it gets the sum of both budgets; the
 * request guard then tells a long URI (414) from a large head (431). Node's own answer when even
 * the sum is exceeded is 431. maxHeadersCount is one more than the limit so an excess is seen
 * (node silently drops fields past it). requestTimeout is off: a large upload may take as long
 * as it keeps moving (bodyIdleTimeoutMs watches that).
 */
export function httpServerOptions(limits: EdgeLimits): ServerOptions {
  return {
    maxHeaderSize: limits.maxHeaderBytes + limits.maxUriBytes + 64,
    headersTimeout: limits.headerTimeoutMs,
    requestTimeout: 0,
    // How often node looks for heads that took too long: a quarter of the timeout, at most a second.
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(limits.headerTimeoutMs / 4))),
    insecureHTTPParser: false,
    // The request guard refuses an HTTP/1.1 request without Host, with the edge's page (node's own
    // answer is a bare 400 without a request id).
    requireHostHeader: false,
    joinDuplicateHeaders: false,
  };
}

/** Settings the server object takes after creation (not constructor options). */
export function applyServerLimits(server: { maxHeadersCount: number | null; maxConnections: number }, limits: EdgeLimits): void {
  server.maxHeadersCount = limits.maxHeaders + 1;
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
}
