// Fixed-window rate limiting for the APIs (spec section 8): N requests per 60 s window per key.
// Counting goes through a counter store so a shared store (Redis) can replace the in-process one;
// the structural type here matches daemon/store/counter-store.ts.

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

/** In-process fixed windows; entries of past windows are dropped as they are touched and by sweep(). */
export class MemoryWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  hit(key: string, windowMs: number, nowMs: number): { count: number; resetAt: number } {
    let window = this.windows.get(key);
    if (window === undefined || window.resetAt <= nowMs) {
      const start = nowMs - (nowMs % windowMs);
      window = { count: 0, resetAt: start + windowMs };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.sweep(nowMs);
    }
    window.count++;
    return { count: window.count, resetAt: window.resetAt };
  }

  sweep(nowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= nowMs) this.windows.delete(key);
  }
}
