import { describe, expect, it } from 'vitest';
import {
  generateIngestToken, generateSiteKey, isIngestTokenFormat, isSiteKeyFormat, randomBase62, secretMatchesHash, sha256Hex,
} from '../../../../daemon/store/config/secrets.js';

describe('secrets', () => {
  it('site keys are exactly 64 characters of [A-Za-z0-9] and differ', () => {
    const keys = Array.from({ length: 200 }, generateSiteKey);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(new Set(keys).size).toBe(keys.length);
    expect(isSiteKeyFormat(keys[0])).toBe(true);
    expect(isSiteKeyFormat(keys[0].slice(1))).toBe(false);
    expect(isSiteKeyFormat(keys[0].slice(1) + '_')).toBe(false);
  });

  it('ingestion tokens are wfi_ + 40 base62', () => {
    const token = generateIngestToken();
    expect(token).toMatch(/^wfi_[A-Za-z0-9]{40}$/);
    expect(isIngestTokenFormat(token)).toBe(true);
    expect(isIngestTokenFormat(generateSiteKey())).toBe(false);
  });

  it('every character is about equally likely (no modulo bias)', () => {
    const text = Array.from({ length: 400 }, generateSiteKey).join(''); // 25,600 characters
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = text.length / 62;
    const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: p = 0.0001 is at about 112. Modulo bias (bytes mod 62) would put the
    // first 8 characters 25% above the rest: chi-square near 170 at this sample size.
    expect(chiSquare).toBeLessThan(112);
  });

  it('rejection sampling drops bytes >= 248 instead of folding them', () => {
    // A source that only ever yields 0xff then 0x00: the first is rejected, so the output is all "A".
    let flip = false;
    const source = (size: number) => Buffer.from(Array.from({ length: size }, () => ((flip = !flip) ? 0xff : 0x00)));
    expect(randomBase62(10, source)).toBe('AAAAAAAAAA');
    // 247 is the last accepted byte: 247 % 62 = 61 -> '9'.
    expect(randomBase62(3, (size) => Buffer.alloc(size, 247))).toBe('999');
  });

  it('hash matching is exact', () => {
    const key = generateSiteKey();
    const hash = sha256Hex(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(secretMatchesHash(key, hash)).toBe(true);
    expect(secretMatchesHash(key.slice(0, 63) + (key[63] === 'a' ? 'b' : 'a'), hash)).toBe(false);
    expect(secretMatchesHash(key, 'abcd')).toBe(false);
  });
});
