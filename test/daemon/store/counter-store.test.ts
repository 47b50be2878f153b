import { describe, expect, it } from 'vitest';
import { MemoryCounterStore } from '../../../daemon/store/counter-store.js';

describe('MemoryCounterStore', () => {
  it('counts per key in fixed windows aligned to the epoch', () => {
    const c = new MemoryCounterStore();
    const t = 1_800_000_000_000; // a multiple of 60 000
    expect(c.hit('a', 60_000, t + 5)).toEqual({ count: 1, resetAt: t + 60_000 });
    expect(c.hit('a', 60_000, t + 59_999)).toEqual({ count: 2, resetAt: t + 60_000 });
    expect(c.hit('b', 60_000, t + 10)).toEqual({ count: 1, resetAt: t + 60_000 });
    expect(c.hit('a', 60_000, t + 60_000)).toEqual({ count: 1, resetAt: t + 120_000 });
  });

  it('sweeps keys whose windows are over', () => {
    const c = new MemoryCounterStore(1000);
    const t = 1_800_000_000_000;
    for (let i = 0; i < 100; i++) c.hit(`k${i}`, 60_000, t);
    expect(c.size).toBe(100);
    c.hit('late', 60_000, t + 180_000);
    expect(c.size).toBe(1);
  });
});
