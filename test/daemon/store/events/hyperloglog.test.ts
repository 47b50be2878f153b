import { describe, expect, it } from 'vitest';
import { HLL_M, HyperLogLog, estimateRegisters } from '../../../../daemon/store/events/hyperloglog.js';

const ip = (i: number) => `${(i >>> 24) & 255}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;

describe('HyperLogLog', () => {
  it.each([10, 1_000, 30_000, 100_000, 400_000])('estimates %i distinct values within 2%%', (n) => {
    const h = new HyperLogLog();
    for (let i = 0; i < n; i++) h.add(ip(i * 7919 + 13));
    for (let i = 0; i < n; i += 3) h.add(ip(i * 7919 + 13)); // repeats change nothing
    expect(Math.abs(h.estimate() - n) / n).toBeLessThan(0.02);
  });

  it('merging sketches estimates the union (sparse and dense alike)', () => {
    const a = new HyperLogLog();
    const b = new HyperLogLog();
    const all = new HyperLogLog();
    for (let i = 0; i < 50_000; i++) {
      const v = ip(i);
      (i % 3 === 0 ? a : b).add(v);
      if (i % 5 === 0) a.add(v);
      all.add(v);
    }
    const small = new HyperLogLog();
    small.add('1.2.3.4');
    a.merge(b);
    a.merge(small);
    all.add('1.2.3.4');
    expect(a.estimate()).toBe(all.estimate());
    const acc = new Uint8Array(HLL_M);
    a.mergeInto(acc);
    expect(estimateRegisters(acc)).toBe(all.estimate());
  });

  it('merges dense registers exactly like a per-register max', () => {
    let seed = 7;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 34;
    const a = new HyperLogLog();
    const b = new HyperLogLog();
    for (let i = 0; i < 40_000; i++) a.add(`a${i}`);
    for (let i = 0; i < 40_000; i++) b.add(`b${i}`);
    const acc = Uint8Array.from({ length: HLL_M }, rnd);
    const want = acc.slice();
    const regsOf = (h: HyperLogLog) => {
      const r = new Uint8Array(HLL_M);
      h.mergeInto(r);
      return r;
    };
    for (const h of [a, b]) {
      const r = regsOf(h);
      for (let i = 0; i < HLL_M; i++) want[i] = Math.max(want[i], r[i]);
      h.mergeInto(acc);
    }
    expect(acc).toEqual(want);
  });

  it('survives serialization in both forms', () => {
    for (const n of [0, 5, 3_000, 50_000]) {
      const h = new HyperLogLog();
      for (let i = 0; i < n; i++) h.add(`v${i}`);
      const back = HyperLogLog.fromBytes(h.toBytes().slice());
      expect(back.estimate()).toBe(h.estimate());
      back.add('another');
      expect(back.estimate()).toBeGreaterThanOrEqual(h.estimate());
    }
  });
});
