// The process exit codes of wafctl, and which error codes map to which. Scripts branch on these,
// so they are part of the interface (man/wafctl.1 "EXIT STATUS" lists them).

export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  /** `vuln check --fail-on LEVEL` found a vulnerability of that severity or worse. */
  vulnerable: 3,
  /** The daemon or API could not be reached, or it refused our credentials. */
  unreachableOrAuth: 4,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

// 401/403 codes of the management API that mean "who you are" (not "what you asked") plus our own
// connection failures. feature_unavailable and limit_exceeded are 403 too but are ordinary errors.
const UNREACHABLE_OR_AUTH_CODES = new Set([
  'daemon_unreachable',
  'cluster_unreachable',
  'api_unreachable',
  'tls_error',
  'not_logged_in',
  'missing_api_key',
  'invalid_api_key_format',
  'invalid_api_key',
  'site_inactive',
  'site_deleted',
  'unauthorized',
  'invalid_token',
  'api_access_disabled',
  'permission_denied',
]);

export function exitCodeForErrorCode(code: string): ExitCodeValue {
  if (code === 'usage_error') return ExitCode.usage;
  if (UNREACHABLE_OR_AUTH_CODES.has(code)) return ExitCode.unreachableOrAuth;
  return ExitCode.error;
}
