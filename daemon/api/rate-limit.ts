// Fixed-window rate limiting for the APIs (spec section 8): N requests per 60 s window per key.
// Counting goes through daemon/store/counter-store.ts: a MemoryCounterStore on a single node, which
// answers at once, or the cluster's Redis (--cluster-redis), which answers with a promise, so a
// client cannot multiply its API quota by the number of nodes.
import type { CounterHit, CounterStore } from '../store/counter-store.js';

/** The counters the APIs count in (a CounterStore). */
export type WindowCounter = CounterStore;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets (X-RateLimit-Reset). */
  resetSeconds: number;
  /** Whole seconds until the reset, at least 1 (Retry-After). */
  retryAfterSeconds: number;
  /** Not counted: the cluster's counters are unusable and the node refuses (--cluster-counter-failure deny). */
  denied?: true;
}

export const MINUTE_MS = 60_000;

/** A promise only when the counter answers with one. */
export function decide(counter: WindowCounter, key: string, limit: number, nowMs: number, windowMs = MINUTE_MS): RateDecision | Promise<RateDecision> {
  const hit = counter.hit(key, windowMs, nowMs, limit);
  return hit instanceof Promise ? hit.then((h) => decision(h, limit, nowMs)) : decision(hit, limit, nowMs);
}

function decision({ count, resetAt, denied }: CounterHit, limit: number, nowMs: number): RateDecision {
  return {
    ...(denied ? { denied } : {}),
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
