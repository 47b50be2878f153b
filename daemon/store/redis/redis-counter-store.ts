import type { CounterHit } from '../counter-store.js';
import type { CounterScript } from './counter-script.js';

// Exact rate-limit counters shared by every node through one Redis (--cluster-redis). The node
// primary is the only client: its own API and edge hits and its workers' hits (over IPC) all come
// here, which is what makes the two savings below possible:
//   - coalescing: hits on the same key within one event-loop turn become one INCRBY n; the reply T
//     gives them T-n+1 ... T in arrival order, so exactly L of them pass, as if sent one by one;
//   - over-limit cache: once a key's count is above the caller's limit, further hits on it are
//     answered here until its window ends (a count above the limit can only grow in its window).
// Failures are not handled here: a hit rejects, and counter-breaker.ts decides what that means.
// Window ends come from Redis's clock and are given back on this node's clock (resetAt), using
// the offset between the two seen on the last reply, so Retry-After and the cache are right on a
// node whose clock is off.

interface Waiter { resolve(hit: CounterHit): void; reject(error: unknown): void }
interface Pending { key: string; windowMs: number; waiters: Waiter[]; lowestLimit: number }
interface OverLimit { count: number; resetAt: number }

/** How often over-limit entries whose window ended are dropped. */
const SWEEP_EVERY_MS = 10_000;

export class RedisCounterStore {
  private pending = new Map<string, Pending>();
  private flushScheduled = false;
  private readonly overLimit = new Map<string, OverLimit>();
  private lastSweep = 0;
  /** Redis's clock minus this node's, from the last reply (0 until one came). */
  private offsetMs = 0;

  constructor(private readonly script: CounterScript, private readonly clock: () => number = Date.now) {}

  /** Redis's clock minus this node's, as last seen: local fallback counting uses it to keep Redis's windows. */
  get clockOffsetMs(): number {
    return this.offsetMs;
  }

  hit(key: string, windowMs: number, now: number, limit?: number): Promise<CounterHit> {
    const cached = this.overLimit.get(key);
    if (cached !== undefined) {
      if (now >= cached.resetAt) this.overLimit.delete(key);
      else if (limit !== undefined && cached.count > limit) return Promise.resolve({ count: ++cached.count, resetAt: cached.resetAt });
    }
    return new Promise((resolve, reject) => {
      const id = `${windowMs}\n${key}`;
      let batch = this.pending.get(id);
      if (batch === undefined) {
        batch = { key, windowMs, waiters: [], lowestLimit: Infinity };
        this.pending.set(id, batch);
      }
      batch.waiters.push({ resolve, reject });
      if (limit !== undefined) batch.lowestLimit = Math.min(batch.lowestLimit, limit);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // After every I/O callback of this turn (the IPC messages of all workers read in it).
        setImmediate(() => this.flush());
      }
    });
  }

  /** Hits waiting for the end of this turn (for tests). */
  get waiting(): number {
    let n = 0;
    for (const batch of this.pending.values()) n += batch.waiters.length;
    return n;
  }

  private flush(): void {
    const batches = this.pending;
    this.pending = new Map();
    this.flushScheduled = false;
    for (const batch of batches.values()) this.send(batch);
    const now = this.clock();
    if (now - this.lastSweep > SWEEP_EVERY_MS) this.sweep(now);
  }

  private send(batch: Pending): void {
    const n = batch.waiters.length;
    this.script.add(batch.key, batch.windowMs, n).then(({ count, windowEnd, redisNow }) => {
      this.offsetMs = redisNow - this.clock();
      const resetAt = windowEnd - this.offsetMs;
      const first = count - n + 1;
      batch.waiters.forEach((waiter, i) => waiter.resolve({ count: first + i, resetAt }));
      if (count > batch.lowestLimit) this.overLimit.set(batch.key, { count, resetAt });
    }, (error: unknown) => {
      for (const waiter of batch.waiters) waiter.reject(error);
    });
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, entry] of this.overLimit) if (now >= entry.resetAt) this.overLimit.delete(key);
  }
}
