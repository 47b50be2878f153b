import { describe, expect, it } from 'vitest';
import { GrowableF64, GrowableU32 } from '../../../../daemon/store/events/growable-array.js';

const CHUNK = 16_384;

describe('growable typed arrays (chunked)', () => {
  it('push, get, set and copy across chunk boundaries, from empty', () => {
    const g = new GrowableU32();
    const n = CHUNK * 2 + 5;
    for (let i = 0; i < n; i++) g.push(i * 3);
    expect(g.length).toBe(n);
    for (const i of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, n - 1]) expect(g.get(i)).toBe(i * 3);
    g.set(CHUNK, 7);
    const c = g.copy();
    expect(c.length).toBe(n);
    expect(c[CHUNK]).toBe(7);
    expect(c[n - 1]).toBe((n - 1) * 3);
  });

  it('adopts restored arrays without copying them, and keeps growing after them', () => {
    for (const n of [0, 3, CHUNK, CHUNK + 1, 3 * CHUNK - 1]) {
      const src = Float64Array.from({ length: n }, (_, i) => i + 0.5);
      const g = GrowableF64.from(src);
      expect(g.length).toBe(n);
      for (let i = 0; i < CHUNK + 10; i++) g.push(-i);
      let wrongGets = 0;
      for (let i = 0; i < n + CHUNK + 10; i++) if (g.get(i) !== (i < n ? i + 0.5 : -(i - n))) wrongGets++;
      expect(wrongGets).toBe(0);
      // Full chunks stay views of the restored array (no copy at the first push).
      if (n >= CHUNK) {
        g.set(0, 42);
        expect(src[0]).toBe(42);
      }
      const c = g.copy();
      expect(c.length).toBe(n + CHUNK + 10);
      let wrong = 0;
      for (let i = 0; i < c.length; i++) if (c[i] !== (i < n ? src[i] : -(i - n))) wrong++;
      expect(wrong).toBe(0);
    }
  });
});
