import { MemoryCounterStore, type CounterHit, type CounterStore } from '../counter-store.js';

// What a node does with its counters while the shared Redis is unusable (hung, down, cut off).
// Every product studied fails open (BunkerWeb, Kong, Envoy: shared/design/scale-out.md section 2),
// and the complaints are about how long a failure takes to notice, so: each call fails after the
// client's 50 ms timeout (redis-connection.ts), and after 5 failures in a row this breaker stops
// asking Redis for 1 s, then sends one probe: back to Redis if it answers, another second if not.
// While open, hits are counted in this node's own MemoryCounterStore (fail open: a client spread
// over N nodes gets at most L per node on top of what Redis counted before, (N+1)·L per window),
// or refused (`deny`: answered 429, Envoy's failure_mode_deny). A hit whose own call failed gets
// the same answer, and so do hits still waiting on Redis when it opens. Local counting keeps Redis's windows (clock offset of the last reply), so a
// degraded window is the same minute on every node.

export type CounterFailureMode = 'open' | 'deny';
export type BreakerState = 'exact' | 'degraded';

/** The shared store, as the breaker sees it. */
export interface RemoteCounters {
  hit(key: string, windowMs: number, now: number, limit?: number): Promise<CounterHit>;
  /** One cheap round trip; rejects when Redis cannot answer. */
  probe(): Promise<void>;
  /** Redis's clock minus this node's, as last seen. */
  readonly clockOffsetMs: number;
}

export interface BreakerTransition {
  state: BreakerState;
  since: number;
  /** Why it opened (the last failure), or why a probe failed. */
  error?: unknown;
}

export interface BreakerOptions {
  failureMode: CounterFailureMode;
  /** Consecutive failures that open the breaker. */
  failuresToOpen?: number;
  /** How long it stays open before one probe. */
  openMs?: number;
  /** Called once per state change (the log line). */
  onTransition?: (transition: BreakerTransition) => void;
  clock?: () => number;
}

export class BreakingCounterStore implements CounterStore {
  private readonly local = new MemoryCounterStore();
  private readonly failuresToOpen: number;
  private readonly openMs: number;
  private readonly clock: () => number;
  private failures = 0;
  private failedTotal = 0;
  private current: BreakerState = 'exact';
  private changedAt: number;
  private probeTimer: NodeJS.Timeout | null = null;
  /** Hits waiting on Redis, answered locally when the breaker opens. */
  private readonly waiting = new Set<() => void>();
  private closed = false;

  constructor(private readonly remote: RemoteCounters, private readonly options: BreakerOptions) {
    this.failuresToOpen = options.failuresToOpen ?? 5;
    this.openMs = options.openMs ?? 1_000;
    this.clock = options.clock ?? Date.now;
    this.changedAt = this.clock();
  }

  get state(): BreakerState {
    return this.current;
  }

  /** Calls to Redis that failed since the start, each answered locally (or denied). */
  get failedCalls(): number {
    return this.failedTotal;
  }

  /** Epoch ms of the last change of state (the start when none). */
  get since(): number {
    return this.changedAt;
  }

  hit(key: string, windowMs: number, now: number, limit?: number): CounterHit | Promise<CounterHit> {
    if (this.current === 'degraded') return this.fallback(key, windowMs, now);
    return new Promise((resolve) => {
      let answered = false;
      const answer = (hit: CounterHit) => {
        if (answered) return;
        answered = true;
        this.waiting.delete(early);
        resolve(hit);
      };
      // When the breaker opens, hits still waiting on Redis are answered at once rather than each
      // waiting out its own timeout: only the calls that failed before it opened pay the timeout.
      const early = () => answer(this.fallback(key, windowMs, now));
      this.waiting.add(early);
      this.remote.hit(key, windowMs, now, limit).then((hit) => {
        if (answered) return; // answered locally already; Redis counted it too (an overcount)
        this.failures = 0;
        answer(hit);
      }, (error: unknown) => {
        this.waiting.delete(early); // answered below, not again by the opening this failure may cause
        this.failed(error);
        if (!answered) answer(this.fallback(key, windowMs, now));
      });
    });
  }

  /** Starts degraded (Redis unreachable at start): local counts, a probe every openMs. */
  startDegraded(error: unknown): void {
    this.open(error);
  }

  /** Stops the probe timer. */
  close(): void {
    this.closed = true;
    if (this.probeTimer !== null) clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private fallback(key: string, windowMs: number, now: number): CounterHit {
    if (this.options.failureMode === 'deny') {
      return { count: Number.MAX_SAFE_INTEGER, resetAt: now + Math.max(1, this.changedAt + this.openMs - this.clock()), denied: true };
    }
    const offset = this.remote.clockOffsetMs;
    const hit = this.local.hit(key, windowMs, now + offset);
    return { count: hit.count, resetAt: hit.resetAt - offset };
  }

  private failed(error: unknown): void {
    this.failedTotal++;
    if (this.current === 'degraded') return;
    this.failures++;
    if (this.failures >= this.failuresToOpen) this.open(error);
  }

  private open(error: unknown): void {
    if (this.closed) return;
    if (this.current !== 'degraded') {
      this.current = 'degraded';
      this.changedAt = this.clock();
      this.options.onTransition?.({ state: 'degraded', since: this.changedAt, error });
      for (const early of [...this.waiting]) early();
    }
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.closed) return;
    this.probeTimer = setTimeout(() => {
      this.probeTimer = null;
      this.remote.probe().then(() => {
        if (this.closed) return;
        this.failures = 0;
        this.current = 'exact';
        this.changedAt = this.clock();
        this.options.onTransition?.({ state: 'exact', since: this.changedAt });
      }, () => this.scheduleProbe());
    }, this.openMs);
    // A probe is no reason to keep the process alive.
    this.probeTimer.unref();
  }
}
