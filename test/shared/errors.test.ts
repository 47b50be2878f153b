import { describe, expect, it } from 'vitest';
import { ERRORS, ERROR_CODES, WafctlError, errorBody, errorStatus, isErrorCode } from '../../shared/errors.js';

describe('the error table', () => {
  it('holds every code of spec section 7 with its status', () => {
    const spec: Record<string, number> = {
      missing_api_key: 401, invalid_api_key_format: 401, invalid_api_key: 401, site_inactive: 403, site_deleted: 403,
      feature_unavailable: 403, validation_error: 422, limit_exceeded: 403, duplicate: 409, no_settings: 404, rate_limit_exceeded: 429,
    };
    for (const [code, status] of Object.entries(spec)) {
      expect(isErrorCode(code)).toBe(true);
      expect(errorStatus(code as keyof typeof ERRORS)).toBe(status);
    }
  });

  it('holds the design codes', () => {
    expect(errorStatus('not_found')).toBe(404);
    expect(errorStatus('method_not_allowed')).toBe(405);
    expect(errorStatus('https_required')).toBe(400);
    expect(errorStatus('internal_error')).toBe(500);
    expect(errorStatus('store_unavailable')).toBe(503);
    expect(isErrorCode('daemon_unreachable')).toBe(true);
  });

  it('holds the vulnerability database codes: 422 for a bad feed or source, 409 against the daemon\'s state', () => {
    const vulndb: Record<string, number> = {
      invalid_source: 422, fetch_failed: 502, not_json_object: 422, invalid_json: 422, truncated: 422, record_too_large: 422,
      no_valid_records: 422, import_in_progress: 409, refresh_not_configured: 409, aborted: 503,
    };
    for (const [code, status] of Object.entries(vulndb)) expect(isErrorCode(code) && errorStatus(code), code).toBe(status);
    // Module-internal signals never reach a client.
    expect(isErrorCode('not_modified')).toBe(false);
    expect(isErrorCode('read_only')).toBe(false);
  });

  it('every code has a message, and WafctlError carries code, status and envelope', () => {
    for (const code of ERROR_CODES) expect(ERRORS[code].message.length).toBeGreaterThan(0);
    const error = new WafctlError('duplicate', 'x exists');
    expect(error).toMatchObject({ code: 'duplicate', status: 409, message: 'x exists' });
    expect(error.toBody()).toEqual({ success: false, error: 'duplicate', message: 'x exists' });
    expect(errorBody('not_found')).toEqual({ success: false, error: 'not_found', message: ERRORS.not_found.message });
    expect(isErrorCode('toString')).toBe(false);
  });
});
