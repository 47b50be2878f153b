// t:sha1 / t:md5 remember recent digests; answers must stay those of node:crypto whatever the
// memo holds (repeats, more distinct values than it keeps, inputs too long to keep).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestMemo } from '../../../../daemon/engine/transformations/digest-memo.js';
import { transformations } from '../../../../daemon/engine/transformations/index.js';

const reference = (alg: string, s: string) => createHash(alg).update(s, 'latin1').digest().toString('latin1');

describe('digest memo', () => {
  it('sha1 and md5 agree with node:crypto across repeats, overflow and long inputs', () => {
    const inputs = [...Array.from({ length: 3000 }, (_, i) => `ua-${i % 1500}-\xff\x00`), 'x'.repeat(600), 'x'.repeat(600)];
    for (const alg of ['sha1', 'md5']) {
      const fn = transformations.get(alg)!.apply;
      for (const s of inputs) expect(fn(s)).toBe(reference(alg, s));
    }
  });

  it('calls the digest once per remembered value, again after the memo started over', () => {
    let calls = 0;
    const memo = digestMemo((s) => { calls++; return s.toUpperCase(); }, 2);
    expect([memo('a'), memo('a'), memo('b'), memo('a')]).toEqual(['A', 'A', 'B', 'A']);
    expect(calls).toBe(2);
    memo('c'); // full: starts over with c
    memo('a');
    expect(calls).toBe(4);
    const long = 'y'.repeat(513);
    memo(long);
    memo(long);
    expect(calls).toBe(6);
  });
});
