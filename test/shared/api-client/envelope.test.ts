import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api-client/api-error.js';
import { parseEnvelope, parseRateLimit, parseRetryAfter } from '../../../shared/api-client/envelope.js';

const headers = (h: Record<string, string> = {}) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });

function failure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parseEnvelope', () => {
  it('unwraps data from a success', () => {
    const ok = parseEnvelope(200, headers(), '{"success":true,"data":{"connected":true}}');
    expect(ok.data).toEqual({ connected: true });
  });

  it('keeps the whole body for responses without a data wrapper (vulnerability check)', () => {
    const ok = parseEnvelope(200, headers(), '{"success":true,"checked_at":"2026-01-01T00:00:00Z","summary":{}}');
    expect(ok.data).toBeUndefined();
    expect(ok.body.checked_at).toBe('2026-01-01T00:00:00Z');
  });

  it('turns an error envelope into an ApiError with code, status and message', () => {
    const error = failure(() => parseEnvelope(409, headers(), '{"success":false,"error":"duplicate","message":"1.2.3.4 is already whitelisted"}'));
    expect([error.code, error.status, error.message]).toEqual(['duplicate', 409, '1.2.3.4 is already whitelisted']);
  });

  it('carries Retry-After and rate-limit headers on a 429', () => {
    const error = failure(() =>
      parseEnvelope(
        429,
        headers({ 'retry-after': '42', 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1790000000' }),
        '{"success":false,"error":"rate_limit_exceeded","message":"slow down"}',
      ),
    );
    expect(error.retryAfter).toBe(42);
    expect(error.rateLimit).toEqual({ limit: 30, remaining: 0, reset: 1790000000 });
  });

  it('refuses bodies that are not the envelope, whatever the status', () => {
    expect(failure(() => parseEnvelope(502, headers(), '<html>bad gateway</html>')).code).toBe('bad_response');
    expect(failure(() => parseEnvelope(200, headers(), '{"ok":1}')).code).toBe('bad_response');
    expect(failure(() => parseEnvelope(500, headers(), '{"success":true}')).code).toBe('bad_response');
  });
});

describe('headers', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('7')).toBe(7);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 0)).toBe(10);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('ignores incomplete rate-limit headers', () => {
    expect(parseRateLimit(headers({ 'x-ratelimit-limit': '120' }))).toBeUndefined();
  });
});
