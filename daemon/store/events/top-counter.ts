// Counts per key for a top list, bounded in memory: a scanner flood of distinct addresses or long
// URIs must not grow one answer without limit. Below `maxKeys` distinct keys the counts are exact;
// past it the smaller half is dropped (the heavy hitters stay) and the answer says it is not
// exact. Keys longer than TOP_KEY_MAX_CHARS are cut (with `…`), so the worst case is about
// maxKeys x 1 KiB.
import type { TopItem } from '../../../shared/schemas/top-lists.js';

interface Tally {
  count: number;
  blocked: number;
  group?: string;
}

export const TOP_COUNTER_MAX_KEYS = 50_000;
export const TOP_KEY_MAX_CHARS = 512;

export class TopCounter {
  private readonly tallies = new Map<string, Tally>();
  private dropped = 0;
  total = 0;

  constructor(private readonly maxKeys = TOP_COUNTER_MAX_KEYS) {}

  add(whole: string, blocked: boolean, group?: string): void {
    this.total++;
    const key = whole.length > TOP_KEY_MAX_CHARS ? `${whole.slice(0, TOP_KEY_MAX_CHARS - 1)}…` : whole;
    let t = this.tallies.get(key);
    if (t === undefined) {
      if (this.tallies.size >= this.maxKeys) this.prune();
      this.tallies.set(key, (t = { count: 0, blocked: 0, group }));
    }
    t.count++;
    if (blocked) t.blocked++;
  }

  get exact(): boolean {
    return this.dropped === 0;
  }

  /** Distinct keys counted (a lower bound once keys were dropped). */
  get distinct(): number {
    return this.tallies.size + this.dropped;
  }

  top(limit: number): TopItem[] {
    const ranked = [...this.tallies].sort(([ka, a], [kb, b]) => b.count - a.count || (ka < kb ? -1 : ka > kb ? 1 : 0));
    return ranked.slice(0, limit).map(([key, t]) => (t.group === undefined ? { key, count: t.count, blocked: t.blocked } : { key, count: t.count, blocked: t.blocked, group: t.group }));
  }

  /** Keeps the larger half by count: a key that matters keeps coming back and outgrows the newcomers. */
  private prune(): void {
    const counts = [...this.tallies.values()].map((t) => t.count).sort((a, b) => b - a);
    const floor = counts[Math.floor(this.maxKeys / 2)];
    for (const [key, t] of this.tallies) {
      if (t.count <= floor) {
        this.tallies.delete(key);
        this.dropped++;
      }
    }
  }
}
