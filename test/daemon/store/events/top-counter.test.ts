import { describe, expect, it } from 'vitest';
import { TOP_KEY_MAX_CHARS, TopCounter } from '../../../../daemon/store/events/top-counter.js';

describe('TopCounter', () => {
  it('is exact below its key budget and orders by count, then key', () => {
    const c = new TopCounter(10);
    for (const k of ['b', 'a', 'c', 'a', 'b']) c.add(k, k === 'a');
    expect(c.top(10)).toEqual([{ key: 'a', count: 2, blocked: 2 }, { key: 'b', count: 2, blocked: 0 }, { key: 'c', count: 1, blocked: 0 }]);
    expect([c.total, c.distinct, c.exact]).toEqual([5, 3, true]);
  });

  it('keeps the heavy hitters of a flood of distinct keys within its budget, and says it is not exact', () => {
    const c = new TopCounter(100);
    for (let i = 0; i < 5_000; i++) {
      c.add(`scanner-${i}`, true);
      if (i % 10 === 0) c.add('heavy', false);
    }
    const [first] = c.top(1);
    expect(first.key).toBe('heavy');
    expect(first.count).toBe(500);
    expect(c.exact).toBe(false);
    expect(c.total).toBe(5_500);
  });

  it('cuts very long keys, so one answer stays bounded however long the URIs of a flood are', () => {
    const c = new TopCounter(10);
    c.add(`/${'a'.repeat(10_000)}`, false);
    c.add(`/${'a'.repeat(20_000)}`, false);
    const [only] = c.top(10);
    expect(only.key).toHaveLength(TOP_KEY_MAX_CHARS);
    expect(only.key.endsWith('…')).toBe(true);
    expect(only.count).toBe(2);
  });
});
