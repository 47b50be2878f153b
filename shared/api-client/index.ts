// The management API client, for the CLI and for scripts: see client.ts.
export { ApiClient, DEFAULT_TIMEOUT_MS, MANAGEMENT_PREFIX, type ApiClientOptions, type Query, type RawResponse } from './client.js';
export { ApiError, API_UNREACHABLE, BAD_RESPONSE, TLS_ERROR, type RateLimit } from './api-error.js';
export { parseEnvelope, parseRateLimit, parseRetryAfter, type Success } from './envelope.js';
