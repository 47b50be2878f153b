// What a failed management API call becomes on the client side: the envelope's error code and
// message, the HTTP status, and when to retry (429). Connection and TLS failures get codes of
// their own (status 0) so the CLI can tell "refused" from "unreachable".

export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
}

export class ApiError extends Error {
  readonly code: string;
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** Seconds to wait before retrying, from Retry-After (429, 503). */
  readonly retryAfter?: number;
  readonly rateLimit?: RateLimit;

  constructor(code: string, message: string, options: { status?: number; retryAfter?: number; rateLimit?: RateLimit; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? 0;
    this.retryAfter = options.retryAfter;
    this.rateLimit = options.rateLimit;
  }
}

/** No HTTP answer at all: refused, reset, DNS, timeout. */
export const API_UNREACHABLE = 'api_unreachable';
/** The server answered but its certificate did not verify against the pinned CA. */
export const TLS_ERROR = 'tls_error';
/** The server answered with something that is not the JSON envelope. */
export const BAD_RESPONSE = 'bad_response';
