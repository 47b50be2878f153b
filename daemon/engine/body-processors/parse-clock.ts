// Parsing a body holds the event loop like evaluating rules does, so it runs on the request's time
// budget (security review M2: 200,000 tiny multipart parts held a worker 1.7 s). Processors tick once per
// unit of work whose cost is bounded (a multipart buffer of at most 4 KiB, an argument, a JSON
// value, an XML element); every TICKS_PER_CHECK ticks the budget's checkpoint runs, which reads the
// wall clock (~0.1 us) and throws EngineBudgetExceeded once the parse has used the request's time.
import type { BodyLimits } from './types.js';

/** Units between two checkpoints: at a few us a unit at worst, well under a millisecond. */
export const TICKS_PER_CHECK = 64;

export class ParseClock {
  private ticks = 0;
  private readonly checkpoint: (() => void) | undefined;

  constructor(limits: BodyLimits) {
    this.checkpoint = limits.checkpoint;
  }

  /** One unit of work done, or `units` of them (a step that did several units' work at once). */
  tick(units = 1): void {
    this.ticks += units;
    if (this.ticks < TICKS_PER_CHECK) return;
    this.ticks = 0;
    this.checkpoint?.();
  }
}
