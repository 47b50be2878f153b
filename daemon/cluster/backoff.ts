// Reconnect delays: doubling from `firstMs` up to `maxMs`, each with up to a quarter more at random
// so that nodes cut off together do not all knock again at the same instant.

export class Backoff {
  readonly #firstMs: number;
  readonly #maxMs: number;
  #nextMs: number;

  constructor(firstMs: number, maxMs: number) {
    this.#firstMs = firstMs;
    this.#maxMs = maxMs;
    this.#nextMs = firstMs;
  }

  /** The delay before the next try; each call doubles the one after. */
  next(): number {
    const base = this.#nextMs;
    this.#nextMs = Math.min(this.#maxMs, base * 2);
    return Math.round(base * (1 + Math.random() / 4));
  }

  /** After a success: the next failure starts again from the first delay. */
  reset(): void {
    this.#nextMs = this.#firstMs;
  }
}
