// The one error table (DESIGN.md house rule 4): every error code the daemon or its clients can report,
// with its HTTP status and a default message. Spec section 7 first, then the codes the design adds.
// Handlers name a code; status and envelope come from here, so a code can never drift from its status.

export const ERRORS = {
  // Spec section 7, management API.
  missing_api_key: { status: 401, message: 'The X-Service-Key header is missing.' },
  invalid_api_key_format: { status: 401, message: 'The API key must be exactly 64 alphanumeric characters.' },
  invalid_api_key: { status: 401, message: 'The API key is not valid or has been replaced.' },
  site_inactive: { status: 403, message: 'The site is not active.' },
  site_deleted: { status: 403, message: 'The site has been deleted.' },
  feature_unavailable: { status: 403, message: 'This feature is not available on the plan tier.' },
  validation_error: { status: 422, message: 'The request failed validation.' },
  limit_exceeded: { status: 403, message: 'A plan limit has been reached.' },
  duplicate: { status: 409, message: 'The resource already exists.' },
  no_settings: { status: 404, message: 'The site settings are not configured.' },
  rate_limit_exceeded: { status: 429, message: 'Too many requests; retry after the time in Retry-After.' },
  // DESIGN.md section 5 and the listeners.
  not_found: { status: 404, message: 'Not found.' },
  method_not_allowed: { status: 405, message: 'Method not allowed for this path.' },
  https_required: { status: 400, message: 'This port speaks HTTPS only; use https://.' },
  bad_request: { status: 400, message: 'The request is malformed.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request body must be application/json.' },
  // Ingestion API (spec 5): a missing, malformed, revoked or unknown token, or an account without API access.
  invalid_token: { status: 401, message: 'The bearer token is missing, malformed, revoked or unknown.' },
  api_access_disabled: { status: 401, message: 'API access is disabled for this account.' },
  // Admin socket: `reload` found config.json or daemon.json unusable and kept the running config.
  config_invalid: { status: 422, message: 'The configuration file is invalid; the running configuration was kept.' },
  // A write found config.json edited by hand since the daemon read it: reload first, nothing was changed.
  config_conflict: { status: 409, message: 'config.json was changed on disk; run `wafctl daemon reload` first.' },
  // `wafctl rules exclude`: the event is not a WAF refusal of a request of this daemon (rate limit,
  // challenge, ingested), or its path or rules cannot be written as an exclusion; nothing was written.
  not_excludable: { status: 422, message: 'The event cannot be turned into a rule exclusion.' },
  // Vulnerability database (admin socket, daemon/vulndb/): an import or refresh that fails changes
  // nothing. Statuses decided as for the codes above: what is wrong with the feed or source the
  // request names is 422 (like validation_error), a clash with the daemon's state is 409 (like
  // duplicate and config_conflict), a failed upstream download is 502.
  invalid_source: { status: 422, message: 'The feed source is not a readable file or an http(s) URL.' },
  fetch_failed: { status: 502, message: 'Downloading the feed failed.' },
  not_json_object: { status: 422, message: 'The feed is not a JSON object.' },
  invalid_json: { status: 422, message: 'The feed is not valid JSON.' },
  truncated: { status: 422, message: 'The feed ends before its top-level object closes.' },
  record_too_large: { status: 422, message: 'A feed record is larger than the per-record limit.' },
  no_valid_records: { status: 422, message: 'The feed holds no valid record.' },
  import_in_progress: { status: 409, message: 'Another import of the vulnerability database is running.' },
  refresh_not_configured: { status: 409, message: 'No refresh URL is configured for the vulnerability database.' },
  // The import stopped before its end (the upload was cut, or the daemon is stopping): nothing changed.
  aborted: { status: 503, message: 'The import was aborted; the database was kept.' },
  // Server side: details are logged, never sent.
  internal_error: { status: 500, message: 'Internal error; the daemon log has the details.' },
  // The daemon's filesystem is full (ENOSPC, EDQUOT): its own class, since the operator can fix it;
  // the path is in the daemon log (5xx details are never sent). Writes are atomic: nothing changed.
  disk_full: { status: 507, message: "The daemon's disk is full (ENOSPC): nothing was changed; the daemon log names the file." },
  shutting_down: { status: 503, message: 'The daemon is shutting down.' },
  // Cluster mode (--cluster-postgres): the shared store cannot be reached, so a write cannot be
  // committed for every node; the edge keeps serving the last config it had. Nothing was changed.
  store_unavailable: { status: 503, message: 'The shared configuration store (PostgreSQL) is unreachable: nothing was changed; retry later.' },
  // Cluster mode: a /waf-logs search over PostgreSQL ran past its time bound (a URI substring
  // common to millions of events, counted exactly over 90 days); narrower terms answer at once.
  search_timeout: { status: 503, message: 'The search took too long; narrow it (an IP, a rule id, a longer URI substring) and retry.' },
  // Client side only: no HTTP exchange happened (status 0 is never sent on the wire).
  daemon_unreachable: { status: 0, message: 'The wafctl daemon is not running or its socket is unreachable.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status;
}

export interface ErrorBody {
  success: false;
  error: ErrorCode;
  message: string;
}

export function errorBody(code: ErrorCode, message?: string): ErrorBody {
  return { success: false, error: code, message: message ?? ERRORS[code].message };
}

/**
 * An error that carries its table code across layers (store -> route -> envelope). Thrown only where
 * a request cannot go on; checks on the edge's hot path return values instead.
 */
export class WafctlError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message?: string) {
    super(message ?? ERRORS[code].message);
    this.name = 'WafctlError';
    this.code = code;
    this.status = ERRORS[code].status;
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message);
  }
}
