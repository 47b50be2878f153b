import { performance } from 'node:perf_hooks';

// Overload: past its capacity an edge worker answers the excess with a cheap 503 instead of
// queueing it (a queue only grows memory and latency until everything times out). Two signals,
// either one sheds:
// - requests in flight in this worker (head received, response not finished) at the bound:
//   holds memory flat when the origin is slow or the clients flood;
// - the event loop stalled past the bound: the worker is out of CPU. The WAF engine runs
//   synchronously, so under overload one turn of the loop reads a large batch of requests and
//   inspects them one after the other; the last of the batch has waited the whole turn. A
//   ticker notes when the loop last got round to timers; a request whose head is handled more
//   than the bound after that tick has waited at least that long, and so has everything after
//   it in the same turn: those are shed (a 503 costs a fraction of an inspection), the turn
//   ends sooner, and the next turn starts with fresh requests. Work-conserving: each turn still
//   serves about `bound` ms of requests, the rest of the backlog is answered at once.
// Shedding is per worker and decided when a request's head arrives, before any site logic.

const TICK_MS = 10;

export interface ShedderOptions {
  maxInFlight: number;
  shedLoopDelayMs: number;
}

export interface ShedderStats {
  inFlight: number;
  admitted: number;
  shedInFlight: number;
  shedLoopDelay: number;
  /**
   * Longest event-loop stall a request's head waited behind (ms) since this shedder started (never
   * reset, so `wafctl daemon status` can show it from any number of readers). 0 while the stall
   * signal is off (shedLoopDelayMs 0): nothing measures it then.
   */
  worstStallMs: number;
}

export class LoadShedder {
  private inFlight = 0;
  private lastTick = performance.now();
  private worstStall = 0;
  private readonly counts = { admitted: 0, shedInFlight: 0, shedLoopDelay: 0 };
  private readonly ticker: NodeJS.Timeout | null;

  constructor(private readonly options: ShedderOptions) {
    if (options.shedLoopDelayMs > 0) {
      this.ticker = setInterval(() => { this.lastTick = performance.now(); }, TICK_MS);
      this.ticker.unref();
    } else {
      this.ticker = null;
    }
  }

  /** 'ok': the caller must call release() once the response is finished; otherwise why it is shed. */
  admit(): 'ok' | 'in-flight' | 'loop-delay' {
    if (this.ticker) {
      const stall = performance.now() - this.lastTick - TICK_MS;
      if (stall > this.worstStall) this.worstStall = stall;
      if (stall > this.options.shedLoopDelayMs) { this.counts.shedLoopDelay++; return 'loop-delay'; }
    }
    if (this.options.maxInFlight > 0 && this.inFlight >= this.options.maxInFlight) { this.counts.shedInFlight++; return 'in-flight'; }
    this.inFlight++;
    this.counts.admitted++;
    return 'ok';
  }

  release(): void {
    this.inFlight--;
  }

  /** Counts since start; reading changes nothing. */
  stats(): ShedderStats {
    return { inFlight: this.inFlight, ...this.counts, worstStallMs: Math.max(0, this.worstStall) };
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
  }
}
