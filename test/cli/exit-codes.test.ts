import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-client/index.js';
import { ProfileFileError } from '../../shared/profile.js';
import { CliError } from '../../cli/cli-error.js';
import { toCliError } from '../../cli/error-mapping.js';
import { ExitCode, exitCodeForErrorCode } from '../../cli/exit-codes.js';

// What the admin socket client throws: an Error carrying a table code (shared/errors.ts).
class WafctlError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

describe('exit codes', () => {
  it('maps usage to 2, daemon/auth failures to 4, everything else to 1', () => {
    expect(exitCodeForErrorCode('usage_error')).toBe(ExitCode.usage);
    for (const code of ['daemon_unreachable', 'cluster_unreachable', 'api_unreachable', 'tls_error', 'invalid_api_key', 'missing_api_key', 'site_deleted', 'not_logged_in']) {
      expect(exitCodeForErrorCode(code), code).toBe(4);
    }
    for (const code of ['validation_error', 'duplicate', 'not_found', 'limit_exceeded', 'feature_unavailable', 'internal_error']) {
      expect(exitCodeForErrorCode(code), code).toBe(1);
    }
  });
});

describe('toCliError', () => {
  it('gives an unreachable daemon exit 4 and the hint to start it', () => {
    const mapped = toCliError(new WafctlError('daemon_unreachable', 'no daemon at /tmp/x/wafctl.sock'));
    expect(mapped.exitCode).toBe(4);
    expect(mapped.hint).toContain('wafctl daemon start');
  });

  it('keeps table codes of the daemon (duplicate -> 1) and their messages', () => {
    const mapped = toCliError(new WafctlError('duplicate', 'site example.com already exists'));
    expect([mapped.code, mapped.message, mapped.exitCode]).toEqual(['duplicate', 'site example.com already exists', 1]);
  });

  it('turns API 401s into exit 4 with a login hint, and a 429 into "retry in N seconds"', () => {
    const auth = toCliError(new ApiError('invalid_api_key', 'key replaced', { status: 401 }));
    expect(auth.exitCode).toBe(4);
    expect(auth.hint).toContain('wafctl login');
    const limited = toCliError(new ApiError('rate_limit_exceeded', 'slow down', { status: 429, retryAfter: 17 }));
    expect([limited.exitCode, limited.hint]).toEqual([1, 'retry in 17 seconds']);
    const limitExceeded = toCliError(new ApiError('limit_exceeded', 'at most 5', { status: 403 }));
    expect(limitExceeded.exitCode).toBe(1);
  });

  it('reports a broken profile file without a stack, and unknown failures as internal_error', () => {
    expect(toCliError(new ProfileFileError('/h/config.json', 'not valid JSON')).code).toBe('profile_error');
    const odd = toCliError(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    expect([odd.code, odd.exitCode]).toEqual(['internal_error', 1]);
    const same = new CliError('key_exists', 'has a key');
    expect(toCliError(same)).toBe(same);
  });
});
