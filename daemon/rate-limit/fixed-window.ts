// Fixed-window rate limiting for the APIs (spec section 8): N requests per 60 s window per key.
// Counting goes through daemon/store/counter-store.ts (MemoryCounterStore now, Redis later). The
// APIs run in the daemon's main process, where the counter answers synchronously.

export interface WindowCounter {
  hit(key: string, windowMs: number, nowMs: number): { count: number; resetAt: number };
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets (X-RateLimit-Reset). */
  resetSeconds: number;
  /** Whole seconds until the reset, at least 1 (Retry-After). */
  retryAfterSeconds: number;
}

export const MINUTE_MS = 60_000;

export function decide(counter: WindowCounter, key: string, limit: number, nowMs: number, windowMs = MINUTE_MS): RateDecision {
  const { count, resetAt } = counter.hit(key, windowMs, nowMs);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.ceil(resetAt / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - nowMs) / 1000)),
  };
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
}
