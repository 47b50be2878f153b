import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareVersions, compileVersion, normaliseVersion } from '../../../daemon/vulndb/version.js';

const sign = (n: number) => (n < 0 ? '<' : n > 0 ? '>' : '=');

describe('compareVersions: the README §4 table', () => {
  const table: [string, string, '<' | '=' | '>'][] = [
    ['1.10', '1.9', '>'],
    ['22.10', '22.5', '>'],
    ['1.2.3', '1.2.3-beta', '>'],
    ['1.2.3-beta', '1.2.3-RC1', '<'],
    ['6.6-RC1', '6.6-rc1', '='],
    ['2.1.0b2', '2.1.0-beta2', '='],
    ['1.0a1', '1.0alpha1', '='],
    ['1.2.3.10', '1.2.3.9', '>'],
    ['2.0.1', '2.0pl1', '<'],
    ['1.0+build', '1.0', '<'],
    ['1.0', '1.0.0', '='], // ★ zero padding
    ['1.10.0-beta1', '1.10', '<'], // ★
    ['v1.2', '1.0', '>'], // ★ leading v
    ['1.0-Beta', '1.0-dev', '>'], // ★ case-insensitive tokens
    ['1.0-pre1', '1.0', '<'], // ★ unknown token below dev, not read as p
  ];
  for (const [a, b, expected] of table) {
    it(`${a} ${expected} ${b}`, () => {
      expect(sign(compareVersions(a, b))).toBe(expected);
      const flipped = expected === '<' ? '>' : expected === '>' ? '<' : '=';
      expect(sign(compareVersions(b, a))).toBe(flipped);
    });
  }
});

describe('compareVersions: more cases', () => {
  const more: [string, string, '<' | '=' | '>'][] = [
    ['1.0-dev', '1.0-alpha', '<'],
    ['1.0-alpha', '1.0-beta', '<'],
    ['1.0-beta', '1.0-RC', '<'],
    ['1.0-rc', '1.0', '<'],
    ['1.0', '1.0-pl', '<'],
    ['1.0-p1', '1.0pl1', '='],
    ['1.0-patch1', '1.0', '<'], // `patch` is unknown, not `p`
    ['1.0-foo', '1.0-bar', '='], // two unknown tokens are equal
    ['1.0-foo', '1.0-dev', '<'],
    ['007', '7', '='],
    ['1.007', '1.7', '='],
    ['1_2_3', '1.2.3', '='],
    ['1..2', '1.2', '='],
    ['.1.2.', '1.2', '='],
    ['1~2', '1.2', '='],
    ['V2', 'v2', '='],
    ['v', '0', '<'], // no digit after v: it stays a token (unknown, rank -1)
    // numbers beyond 2^53 compare exactly, without overflow
    ['9007199254740993', '9007199254740992', '>'],
    ['1.99999999999999999999999999999', '1.99999999999999999999999999998', '>'],
    ['1.100000000000000000000000000000', '1.99999999999999999999999999999', '>'],
    ['00000000000000000000000000000000001', '1', '='],
    ['1.0.0.0.0.0', '1', '='],
    ['1.0.0.0.0.1', '1', '>'],
  ];
  for (const [a, b, expected] of more) {
    it(`${a} ${expected} ${b}`, () => {
      expect(sign(compareVersions(a, b))).toBe(expected);
    });
  }
});

describe('compareVersions: order properties', () => {
  const part = fc.oneof(
    fc.stringMatching(/^[0-9]{1,25}$/),
    fc.constantFrom('dev', 'alpha', 'a', 'beta', 'B', 'RC', 'rc', 'pl', 'p', 'build', 'pre'),
  );
  const version = fc.array(fc.tuple(part, fc.constantFrom('.', '-', '_', '+', '')), { minLength: 1, maxLength: 6 })
    .map((parts) => parts.map(([p, sep]) => p + sep).join(''));

  it('is antisymmetric and transitive', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        expect(Math.sign(compareVersions(a, b))).toBe(-Math.sign(compareVersions(b, a)) || 0);
        if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0) expect(compareVersions(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with BigInt order for single numbers of any length', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.bigInt({ min: 0n, max: 10n ** 40n }), (x, y) => {
        expect(Math.sign(compareVersions(x.toString(), y.toString()))).toBe(x < y ? -1 : x > y ? 1 : 0);
      }),
    );
  });
});

describe('normaliseVersion and compileVersion', () => {
  it('trims and strips one leading v only before a digit', () => {
    expect(normaliseVersion('  v1.2 ')).toBe('1.2');
    expect(normaliseVersion('vv1.2')).toBe('vv1.2');
    expect(normaliseVersion('version')).toBe('version');
    expect(normaliseVersion('V10')).toBe('10');
  });

  it('splits at digit/letter switches and ranks tokens', () => {
    expect(compileVersion('2.1.0b2')).toEqual([
      { rank: 4, num: '2' },
      { rank: 4, num: '1' },
      { rank: 4, num: '0' },
      { rank: 2, num: '' },
      { rank: 4, num: '2' },
    ]);
    expect(compileVersion('1.0+build').at(-1)).toEqual({ rank: -1, num: '' });
  });
});
