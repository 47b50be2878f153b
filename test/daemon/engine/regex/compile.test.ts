import { describe, expect, it } from 'vitest';
import { compilePcre, pcreGroups } from '../../../../daemon/engine/regex/index.js';

const matches = (pattern: string, input: string) => compilePcre(pattern).regex.test(input);

describe('PCRE -> JS translation: matching semantics', () => {
  const cases: Array<[pattern: string, input: string, expected: boolean]> = [
    // ModSecurity compiles with DOTALL: '.' crosses newlines.
    ['a.b', 'a\nb', true],
    ['(?-s)a.b', 'a\nb', false],
    ['(?-s)a.b', 'a-b', true],
    // DOLLAR_ENDONLY: '$' does not match before a trailing newline; \Z does.
    ['abc$', 'abc\n', false],
    ['abc$', 'abc', true],
    ['abc\\Z', 'abc\n', true],
    ['abc\\z', 'abc\n', false],
    ['\\Aabc', 'xabc', false],
    ['\\Aabc', 'abcx', true],
    // Multiline: ^ and $ around \n only (JS m would also honour \r).
    ['(?m)^b$', 'a\nb\nc', true],
    ['(?m)^b$', 'a\rb\rc', false],
    // Inline caseless at the start, scoped, and switched off.
    ['(?i)select', 'SeLeCt', true],
    ['(?i:sel)ect', 'SELect', true],
    ['(?i:sel)ect', 'SELECT', false],
    ['a(?i)b', 'aB', true],
    ['a(?i)b', 'AB', false],
    ['(a(?i)b|c)', 'C', true],
    ['(?i)a(?-i)b', 'Ab', true],
    ['(?i)a(?-i)b', 'AB', false],
    ['(?i)[a-c]x', 'BX', true],
    ['(?i:[^a])', 'A', false],
    // PCRE folds ASCII only; JS's i flag would fold Latin-1 too.
    ['(?i)\\xe0', '\xc0', false],
    ['(?i)\\xe0', '\xe0', true],
    // \s is PCRE's set (includes VT, excludes NBSP); \h and \v are PCRE's, not JS's.
    ['^\\s$', '\x0b', true],
    ['^\\s$', '\xa0', false],
    ['^\\S$', '\xa0', true],
    ['^[\\s]$', '\xa0', false],
    ['^\\h$', '\xa0', true],
    ['^\\h$', '\n', false],
    ['^\\v$', '\n', true],
    ['^\\v$', '\x85', true],
    ['^\\R$', '\r\n', true],
    // POSIX classes.
    ['^[[:alpha:]]+$', 'abcXYZ', true],
    ['^[[:alpha:]]+$', 'abc1', false],
    ['^[[:^digit:]]+$', 'abc', true],
    ['^[[:xdigit:][:space:]]+$', 'af 09', true],
    // ']' first in a class is a literal; '-' next to a class escape is a literal.
    ['^[]a]+$', ']a]', true],
    ['^[^]a]$', 'b', true],
    ['^[^]a]$', ']', false],
    ['^[\\w-.]+$', 'a-b.c', true],
    // \x{..}, \xNN, octal, \e, \cX: byte values.
    ['^\\x{41}\\x42$', 'AB', true],
    ['^\\x{e9}$', '\xe9', true],
    ['^\\101$', 'A', true],
    ['^\\0$', '\0', true],
    ['^\\e\\cA$', '\x1b\x01', true],
    // Literal braces that are not quantifiers.
    ['^a{,2}$', 'a{,2}', true],
    ['^a{2}$', 'aa', true],
    ['^x{$', 'x{', true],
    // Possessive quantifiers and atomic groups never give characters back.
    ['^a++a', 'aaaa', false],
    ['^a+a', 'aaaa', true],
    ['^(?>a+)b', 'aaab', true],
    ['^(?>a|ab)c', 'abc', false],
    ['^(?:a|ab)c', 'abc', true],
    ['^[ab]*+b', 'abab', false],
    ['^\\d{1,3}+\\d', '1234', true],
    // \Q...\E quotes metacharacters.
    ['^\\Qa.b*\\E$', 'a.b*', true],
    ['^\\Qa.b*\\E$', 'axb', false],
    // Back references, including ones a possessive wrapper renumbers.
    ['^(a)x++(b)\\2\\1$', 'axxbba', true],
    ['(?<n>ab)\\k<n>', 'abab', true],
    ['(?P<n>ab)(?P=n)', 'abab', true],
    // Extended mode drops whitespace and comments.
    ['(?x) a b # comment\n c', 'abc', true],
    // Comments.
    ['a(?#note)b', 'ab', true],
    ['^a(?#note)+$', 'aaa', true],
    // Unknown letter escapes are literals (PCRE without PCRE_EXTRA).
    ['^\\i\\y$', 'iy', true],
    // \b follows PCRE's ASCII word characters.
    ['\\bab\\b', 'x ab y', true],
    ['\\bab\\b', '\xe9ab', true],
  ];
  it.each(cases)('/%s/ on %j -> %s', (pattern, input, expected) => {
    expect(matches(pattern, input)).toBe(expected);
  });
});

describe('PCRE -> JS translation: captures keep PCRE numbering', () => {
  it('maps groups around possessive and atomic wrappers', () => {
    const re = compilePcre('(a)(?>b+)(c)++(d)');
    const m = re.regex.exec('abbbccd')!;
    expect(pcreGroups(re, m, 9)).toEqual(['abbbccd', 'a', 'c', 'd']);
  });
  it('gives unset groups as empty strings', () => {
    const re = compilePcre('(a)|(b)');
    expect(pcreGroups(re, re.regex.exec('b')!, 9)).toEqual(['b', '', 'b']);
  });
});

describe('PCRE -> JS translation: load-time errors', () => {
  const bad: Array<[string, RegExp]> = [
    ['(?R)', /recursion/],
    ['(?(1)a|b)', /unsupported group syntax/],
    ['a\\Kb', /\\K/],
    ['\\x{100}', /too large for byte mode/],
    ['[z-a]', /range out of order/],
    ['(abc', /missing \)/],
    ['abc)', /unmatched '\)'/],
    ['*a', /does not follow a repeatable item/],
    ['[abc', /missing terminating \]/],
    ['\\2(a)', /non-existent subpattern/],
    ['a{3,2}', /out of order/],
    ['[[:nope:]]', /unknown POSIX class/],
    ['\\u0041', /does not support/],
    ['(*UTF8)a', /verb/],
  ];
  it.each(bad)('rejects /%s/', (pattern, message) => {
    expect(() => compilePcre(pattern)).toThrow(message);
  });
  it('names the pattern in the error', () => {
    expect(() => compilePcre('(?R)')).toThrow(/invalid regular expression \/\(\?R\)\//);
  });
});

describe('possessive quantifiers that cannot give anything back', () => {
  it('become plain greedy repeats (no back reference, so V8 can fall back to its linear engine)', () => {
    expect(compilePcre('a\\s*+;b').regex.source).not.toMatch(/\\[1-9]/);
    expect(compilePcre('[a-z]++=').regex.source).not.toMatch(/\\[1-9]/);
  });
  it('stay emulated when the next item could match what they consumed', () => {
    expect(compilePcre('\\s*+\\s').regex.source).toMatch(/\\1/);
    expect(compilePcre('a++').regex.source).toMatch(/\\1/);
    expect(compilePcre('(?i)a++A').regex.source).toMatch(/\\1/);
    expect(compilePcre('\\w++\\s*;').regex.source).toMatch(/\\1/);
  });
  it('keep their meaning either way', () => {
    expect(compilePcre('^\\s*+;').regex.test('   ;')).toBe(true);
    expect(compilePcre('^a++a').regex.test('aaa')).toBe(false);
  });
});

describe('case modes found by the PCRE2 fuzzer (bench/engine-parts/pcre-fuzz.ts)', () => {
  it('keeps a case-sensitive Latin-1 byte case-sensitive next to caseless ASCII', () => {
    const re = compilePcre('(?i:a|(?-i:\\xe0))').regex;
    expect(re.test('A')).toBe(true);
    expect(re.test('\xe0')).toBe(true);
    expect(re.test('\xc0')).toBe(false);
  });
  it('expands caseless letters next to case-sensitive \\w and digits, without the i flag (case-folding.test.ts)', () => {
    const re = compilePcre('(?i)select\\w+\\d').regex;
    expect(re.flags).not.toContain('i');
    expect(re.test('SeLeCT_x1')).toBe(true);
    expect(re.test('select\xe0\x31')).toBe(false);
  });
});
