import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

// Overload: past its capacity an edge worker answers the excess with a cheap 503 instead of
// queueing it (a queue only grows memory and latency until everything times out). Two signals,
// either one sheds:
// - requests in flight in this worker (head received, response not finished) at the bound:
//   holds memory flat when the origin is slow or the clients flood;
// - the event loop's mean delay over the last sample above the bound: the worker is out of CPU
//   (the WAF engine is CPU-bound, so in-flight stays low while the queue grows in the kernel).
//   The mean, not the max, as fastify's under-pressure does, so one slow tick does not shed.
// Shedding is per worker and decided when a request's head arrives, before any site logic.

const SAMPLE_MS = 500;
const RESOLUTION_MS = 10;

export interface ShedderOptions {
  maxInFlight: number;
  shedLoopDelayMs: number;
}

export interface ShedderStats {
  inFlight: number;
  admitted: number;
  shedInFlight: number;
  shedLoopDelay: number;
  /** Mean event-loop delay of the last sample, ms (0 when the delay signal is off). */
  loopDelayMs: number;
}

export class LoadShedder {
  private inFlight = 0;
  private overloaded = false;
  private lastDelayMs = 0;
  private readonly counts = { admitted: 0, shedInFlight: 0, shedLoopDelay: 0 };
  private readonly histogram: IntervalHistogram | null;
  private readonly timer: NodeJS.Timeout | null;

  constructor(private readonly options: ShedderOptions) {
    if (options.shedLoopDelayMs > 0) {
      this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
      this.histogram.enable();
      this.timer = setInterval(() => this.sample(), SAMPLE_MS);
      this.timer.unref();
    } else {
      this.histogram = null;
      this.timer = null;
    }
  }

  /** 'ok': the caller must call release() once the response is finished; otherwise why it is shed. */
  admit(): 'ok' | 'in-flight' | 'loop-delay' {
    if (this.overloaded) { this.counts.shedLoopDelay++; return 'loop-delay'; }
    if (this.options.maxInFlight > 0 && this.inFlight >= this.options.maxInFlight) { this.counts.shedInFlight++; return 'in-flight'; }
    this.inFlight++;
    this.counts.admitted++;
    return 'ok';
  }

  release(): void {
    this.inFlight--;
  }

  stats(): ShedderStats {
    return { inFlight: this.inFlight, ...this.counts, loopDelayMs: this.lastDelayMs };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.histogram?.disable();
  }

  private sample(): void {
    const h = this.histogram!;
    // The histogram counts the timer's own resolution as delay; take it off (under-pressure does the same).
    this.lastDelayMs = h.count > 0 ? Math.max(0, h.mean / 1e6 - RESOLUTION_MS) : 0;
    h.reset();
    this.overloaded = this.lastDelayMs > this.options.shedLoopDelayMs;
  }
}
