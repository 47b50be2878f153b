// Turns whatever a command threw into the one CliError shape, with a hint where one helps. This is
// the only place that knows which failures deserve which advice.
import { ApiError } from '../shared/api-client/index.js';
import { ProfileFileError } from '../shared/profile.js';
import { CliError } from './cli-error.js';
import { ExitCode } from './exit-codes.js';

const KEY_HINT = 'log in again with `wafctl login --site DOMAIN --key KEY`, or issue a new key with `wafctl site key DOMAIN --regenerate`';

const HINTS: Record<string, string> = {
  daemon_unreachable: 'is it running? try `wafctl daemon start` (and the same --data-dir)',
  api_unreachable: 'is the server address right? check --server, WAFCTL_SERVER or `wafctl login --server URL`',
  tls_error: "the server's certificate does not verify against the pinned CA: pass the daemon's ca_file with `wafctl login --ca FILE`",
  missing_api_key: KEY_HINT,
  invalid_api_key_format: KEY_HINT,
  invalid_api_key: KEY_HINT,
  site_inactive: 'enable the site with `wafctl site enable DOMAIN`',
  invalid_server: 'the management API URL looks like https://HOST:9443 (`wafctl daemon status` shows api_url)',
  refresh_not_configured: 'import from a URL instead with `wafctl vulndb import URL`, or start the daemon with --vulndb-refresh-url',
  disk_full: "free space on the data dir's filesystem (`wafctl daemon status` shows the data dir), then run the command again",
};

export function hintFor(code: string, retryAfter?: number): string | undefined {
  if (code === 'rate_limit_exceeded') {
    return retryAfter === undefined ? 'wait a minute before retrying' : `retry in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`;
  }
  return HINTS[code];
}

interface CodedError {
  code: string;
  message: string;
}

function isCoded(error: unknown): error is CodedError {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[a-z][a-z_]*$/.test(code);
}

export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ProfileFileError) return new CliError('profile_error', error.message);
  if (error instanceof ApiError) {
    const auth = error.status === 401 || ['site_inactive', 'site_deleted'].includes(error.code);
    return new CliError(error.code, error.message, {
      hint: hintFor(error.code, error.retryAfter),
      exitCode: auth ? ExitCode.unreachableOrAuth : undefined,
    });
  }
  // Errors that carry a table code (shared/errors.ts), e.g. from the admin socket client.
  if (isCoded(error)) {
    const hint = hintFor(error.code);
    // The admin client already ends some messages with advice; the hint line says it once.
    const message = hint ? error.message.replace(/; start it with `wafctl daemon start`$/, '') : error.message;
    return new CliError(error.code, message, { hint });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CliError('internal_error', message, { hint: 'run again with -v for details' });
}
