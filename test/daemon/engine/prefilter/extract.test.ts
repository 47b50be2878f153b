// What the literal prefilter derives from a regex (the clauses a match needs), and the one-pass
// scanner on overlapping atoms. Soundness over CRS is in soundness.test.ts.
import { describe, expect, it } from 'vitest';
import { compilePcre } from '../../../../daemon/engine/regex/index.js';
import { LiteralIndex, literalCondition, selectClauses } from '../../../../daemon/engine/prefilter/index.js';

function clausesOf(pattern: string): string[][] {
  return selectClauses(literalCondition(compilePcre(pattern).ast))
    .map((c) => [...c].sort())
    .sort((a, b) => a.join().localeCompare(b.join()));
}

describe('literal clauses derived from the syntax tree', () => {
  it.each([
    ['union\\s+select', [['select'], ['union']]],
    ['(?i)SeLeCt', [['select']]],
    ['SELECT', [['select']]], // case-sensitive literals are checked caselessly: weaker, still sound
    ['foo|bar', [['bar', 'foo']]],
    ['a(?:bc)?d', [['abcd', 'ad']]],
    ['[<>]script', [['<script', '>script']]],
    ['a{3}bc', [['aaabc']]],
    ['(?=[\\s\\S]*passwd)', [['passwd']]],
    ['(?!abc)def', [['def']]],
    ['(?:alert|prompt)\\s*\\(', [['('], ['alert', 'prompt']]],
    ['x*yz', [['yz']]],
    ['(?:ab)+cd', [['ab'], ['cd']]],
    ['^$', []],
    ['[\\s\\S]*', []],
    ['\\d+', []],
    ['(?:a|b|c)', []], // one common letter: always there, not worth checking
    ['(union)\\1', [['union']]],
  ])('%s', (pattern, expected) => {
    expect(clausesOf(pattern)).toEqual(expected);
  });

  it('a class with no byte makes the regex unmatchable on byte strings (an empty clause)', () => {
    expect(clausesOf('[^\\x00-\\xff]')).toEqual([[]]);
  });
});

describe('LiteralIndex gates', () => {
  const index = new LiteralIndex();
  const gate = (pattern: string) => index.gate(selectClauses(literalCondition(compilePcre(pattern).ast)))!;
  const union = gate('union\\s+select');
  const alternatives = gate('(?:xp_cmdshell|cmd|shell)');
  const never = gate('[^\\x00-\\xff]');
  const scope = {};

  it('passes a value holding every clause, in any case, and skips one that lacks a clause', () => {
    expect(union('1 UNION SELECT 2', scope)).toBe(true);
    expect(union('1 union all', scope)).toBe(false);
    expect(union('select 1', scope)).toBe(false);
  });

  it('finds atoms that overlap or end inside longer ones (Aho-Corasick suffix outputs)', () => {
    expect(alternatives('xp_cmdshel', scope)).toBe(true); // "cmd" inside a partial "xp_cmdshell"
    expect(alternatives('bashell', scope)).toBe(true); // "shell" ends a longer path
    expect(alternatives('sh ell cm d', scope)).toBe(false);
  });

  it('never rules anything out for a value that is not a byte string', () => {
    expect(never('abc', scope)).toBe(false);
    expect(never('ab\u0100', scope)).toBe(true);
    expect(union('\u0100', scope)).toBe(true);
  });

  it('keeps working when regexes register after scans began (the scanner is rebuilt)', () => {
    expect(union('union select', scope)).toBe(true);
    const later = gate('benchmark\\(');
    expect(later('BENCHMARK(1,2)', scope)).toBe(true);
    expect(later('bench', scope)).toBe(false);
    expect(union('union select', scope)).toBe(true);
  });
});

describe('clause tests over a looked-up scan (for a caller that keeps the offset per value)', () => {
  it('agrees with the string gate, and an offset of -1 means "not a byte string"', () => {
    const index = new LiteralIndex();
    const clauses = selectClauses(literalCondition(compilePcre('(?i)union\\s+select').ast));
    const test = index.clauseTest(clauses)!;
    const gate = index.gate(clauses)!;
    const scope = {};
    const cache = index.scanCache(scope);
    for (const value of ['1 UNION SELECT 2', 'union', 'select', '', 'x\u0100']) {
      const at = cache.offsetOf(value);
      expect(at < 0 || test(cache.bits, at)).toBe(gate(value, scope));
    }
    expect(cache.offsetOf('x\u0100')).toBe(-1);
    expect(index.scanCache(scope)).toBe(cache);
  });
});
