// The management API's JSON envelope (spec 2.1): `{success, data?, error?, message?}`.
// Parsing is strict about the shape and forgiving about extras: a success must say
// `success: true`, an error must carry a string code.
import { z } from 'zod';
import { ApiError, BAD_RESPONSE, type RateLimit } from './api-error.js';

const SuccessEnvelope = z.looseObject({ success: z.literal(true), data: z.unknown().optional(), message: z.string().optional() });
const ErrorEnvelope = z.looseObject({ success: z.literal(false), error: z.string(), message: z.string().optional() });

export interface HeaderSource {
  get(name: string): string | null;
}

export interface Success<T = unknown> {
  /** The whole parsed body (the vulnerability check has no `data` wrapper). */
  body: Record<string, unknown>;
  data: T;
  message?: string;
  status: number;
  rateLimit?: RateLimit;
}

export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value); // Retry-After may also be an HTTP date
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

export function parseRateLimit(headers: HeaderSource): RateLimit | undefined {
  const raw = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => headers.get(name));
  if (raw.some((value) => value === null || value.trim() === '')) return undefined;
  const [limit, remaining, reset] = raw.map(Number);
  if (![limit, remaining, reset].every(Number.isFinite)) return undefined;
  return { limit, remaining, reset };
}

/** The decoded envelope of a response, or the ApiError it stands for. */
export function parseEnvelope<T = unknown>(status: number, headers: HeaderSource, text: string): Success<T> {
  const rateLimit = parseRateLimit(headers);
  const retryAfter = parseRetryAfter(headers.get('retry-after'));
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError(BAD_RESPONSE, `HTTP ${status} with a body that is not JSON: ${snippet(text)}`, { status, retryAfter, rateLimit });
  }
  const failure = ErrorEnvelope.safeParse(json);
  if (failure.success) {
    const message = failure.data.message ?? `HTTP ${status}`;
    throw new ApiError(failure.data.error, message, { status, retryAfter, rateLimit });
  }
  const success = SuccessEnvelope.safeParse(json);
  if (success.success && status >= 200 && status < 300) {
    return { body: success.data, data: success.data.data as T, message: success.data.message, status, rateLimit };
  }
  throw new ApiError(BAD_RESPONSE, `HTTP ${status} without the JSON envelope: ${snippet(text)}`, { status, retryAfter, rateLimit });
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? flat.slice(0, 119) + '…' : flat || '(empty)';
}
