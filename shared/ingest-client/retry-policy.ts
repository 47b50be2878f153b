// When to send a batch again (spec section 7: retry 5xx with exponential backoff, never 4xx without
// fixing the request; 429 says how long to wait). Full jitter keeps many shippers from retrying in step.

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Delay before attempt `attempt + 1` after a 5xx or network failure (attempt counts from 1). */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export type Outcome = 'accepted' | 'partial' | 'rejected' | 'rate_limited' | 'retryable';

export function outcomeOf(status: number): Outcome {
  if (status === 200) return 'accepted';
  if (status === 207) return 'partial';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'retryable';
  return 'rejected';
}
