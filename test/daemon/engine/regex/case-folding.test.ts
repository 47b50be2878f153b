// Caseless PCRE without the `i` flag: V8's linear-time engine (the backtrack bound of
// daemon/engine/regex-safety.ts) refuses `i` in Node 20, so caseless letters are emitted as [xX]
// classes. PCRE without UTF mode and with its default "C" tables folds A-Z/a-z only; bytes
// 0x80-0xff have no other case. These tests hold the translation to exactly that, byte by byte.
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { compilePcre } from '../../../../daemon/engine/regex/index.js';

setFlagsFromString('--enable-experimental-regexp-engine'); // lets a test ask V8 whether a regex takes the `l` flag

const BYTES = Array.from({ length: 256 }, (_, b) => b);
const hex = (b: number) => `\\x${b.toString(16).padStart(2, '0')}`;
const isLetter = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
/** PCRE's default C-locale fold: the other case of an ASCII letter, every other byte itself. */
const pcreFold = (b: number) => (isLetter(b) ? b ^ 0x20 : b);
const linearEngineAccepts = (re: RegExp) => {
  try {
    new RegExp(re.source, `${re.flags}l`);
    return true;
  } catch {
    return false;
  }
};

describe('caseless patterns are emitted without the i flag', () => {
  it.each(['(?i)select\\w+\\d', '(?i:union)\\s+all', '(?i)[a-f]+x', 'a(?i)b', '(?i)(?:a|b)*c'])('%s', (pattern) => {
    const { regex } = compilePcre(pattern);
    expect(regex.flags).not.toContain('i');
    expect(linearEngineAccepts(regex)).toBe(true);
  });

  it('a caseless literal byte matches exactly itself and its ASCII other case, for all 256 bytes', () => {
    const wrong: string[] = [];
    for (const p of BYTES) {
      const re = compilePcre(`(?i)^${hex(p)}$`).regex;
      for (const s of BYTES) {
        const expected = s === p || s === pcreFold(p);
        if (re.test(String.fromCharCode(s)) !== expected) wrong.push(`${hex(p)} vs ${hex(s)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ['(?i)^[a-f]$', (s: number) => (s >= 0x61 && s <= 0x66) || (s >= 0x41 && s <= 0x46)],
    ['(?i)^[^a-f]$', (s: number) => !((s >= 0x61 && s <= 0x66) || (s >= 0x41 && s <= 0x46))],
    ['(?i)^[W-c]$', (s: number) => (s >= 0x57 && s <= 0x63) || (s >= 0x77 && s <= 0x7a) || (s >= 0x41 && s <= 0x43)],
    ['(?i)^[\\xc0-\\xe0]$', (s: number) => s >= 0xc0 && s <= 0xe0],
    ['(?i)^[^\\xe0]$', (s: number) => s !== 0xe0],
    ['(?i)^[[:upper:]]$', (s: number) => isLetter(s)],
    ['(?i)^\\W$', (s: number) => !(isLetter(s) || (s >= 0x30 && s <= 0x39) || s === 0x5f)],
  ])('class %s folds like PCRE on every byte', (pattern, expected) => {
    const re = compilePcre(pattern).regex;
    const wrong = BYTES.filter((s) => re.test(String.fromCharCode(s)) !== expected(s)).map(hex);
    expect(wrong).toEqual([]);
  });

  it('scopes: (?i:...) and (?-i) leave the case-sensitive parts alone', () => {
    const re = compilePcre('a(?i:bc)d(?i)e(?-i)f').regex;
    expect(re.test('aBCdEf')).toBe(true);
    expect(re.test('AbcdEf')).toBe(false);
    expect(re.test('abcDef')).toBe(false);
    expect(re.test('abcdeF')).toBe(false);
  });
});

describe('caseless back references keep the i flag (no class can fold a back reference)', () => {
  it('(?i)(ab)\\1 matches a repeat in another case, using the i flag', () => {
    const { regex } = compilePcre('(?i)(ab)\\1');
    expect(regex.flags).toContain('i');
    expect(regex.test('abAB')).toBe(true);
    expect(regex.test('abAC')).toBe(false);
  });
  it('and the i flag is only used where JS folds Latin-1 bytes as PCRE does', () => {
    expect(() => compilePcre('(?i)(a)\\1(?-i)b')).toThrow(/caseless back reference/);
  });
});
