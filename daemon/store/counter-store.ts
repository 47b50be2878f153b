// Fixed-window counters for rate limiting. A window is aligned to multiples of windowMs since
// the epoch (the 60 s window is a wall-clock minute), so every worker and every restart agree
// on where a window starts. hit() counts one event and returns the count in the current window
// including it: the caller allows the event when count <= limit, so with limit 10 exactly 10
// of any number of concurrent hits pass.
//
// Behind an interface so that Redis (INCRBY + PEXPIREAT, daemon/store/redis/) replaces it when the
// data plane spans machines (--cluster-redis). Across node:cluster workers the counters live in
// the primary; see daemon/proxy/cluster-ipc.ts.

export interface CounterHit {
  /** Events counted in this window for this key, including this one. */
  count: number;
  /** Epoch ms when the window ends (Retry-After = resetAt - now). */
  resetAt: number;
  /** Set when no count could be had and the node is told to refuse (--cluster-counter-failure deny):
   *  count is then above any limit, so the caller answers 429 as for a client over its limit. */
  denied?: true;
}

export interface CounterStore {
  /** `limit`, when the caller has one, lets a shared store answer a key already over it without a
   *  round trip until its window ends (a count above the limit only grows within a window). */
  hit(key: string, windowMs: number, now: number, limit?: number): CounterHit | Promise<CounterHit>;
}

interface Slot { windowStart: number; windowMs: number; count: number }

/** In-process counters; exact within one process. Expired keys are swept periodically. */
export class MemoryCounterStore implements CounterStore {
  private readonly slots = new Map<string, Slot>();
  private lastSweep = 0;

  constructor(private readonly sweepEveryMs = 60_000) {}

  hit(key: string, windowMs: number, now: number): CounterHit {
    const windowStart = now - (now % windowMs);
    let slot = this.slots.get(key);
    if (!slot || slot.windowStart !== windowStart) {
      slot = { windowStart, windowMs, count: 0 };
      this.slots.set(key, slot);
    }
    slot.count++;
    if (now - this.lastSweep > this.sweepEveryMs) this.sweep(now);
    return { count: slot.count, resetAt: windowStart + windowMs };
  }

  /** Keys currently held (for tests and status). */
  get size(): number {
    return this.slots.size;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    // A slot whose window ended before the previous window began can never be counted again. Each
    // slot by its own window: keys of different windows (the minute of a rate limit, the ten
    // minutes of ban strikes) share the store.
    for (const [key, slot] of this.slots) {
      if (slot.windowStart + slot.windowMs <= now - slot.windowMs) this.slots.delete(key);
    }
  }
}
