import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PhraseMatcher } from '../../../../daemon/engine/operators/phrase-matcher.js';

/** Reference: the phrase ending earliest in the input, the longest among those ending there. */
function naive(phrases: string[], input: string): string | null {
  const lower = input.toLowerCase();
  let best: { end: number; phrase: string } | null = null;
  for (const phrase of phrases) {
    if (phrase.length === 0) continue;
    const at = lower.indexOf(phrase.toLowerCase());
    if (at < 0) continue;
    const end = at + phrase.length;
    if (!best || end < best.end || (end === best.end && phrase.length > best.phrase.length)) best = { end, phrase };
  }
  return best?.phrase ?? null;
}

describe('PhraseMatcher (Aho-Corasick)', () => {
  it('agrees with a naive search on random phrase sets and inputs', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'c'), minLength: 1, maxLength: 4 });
    fc.assert(fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 12, selector: (w) => w.toLowerCase() }),
      fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'B', 'x'), maxLength: 20 }), (phrases, input) => {
        expect(new PhraseMatcher(phrases).find(input)).toBe(naive(phrases, input));
      }), { numRuns: 500 });
  });
  it('handles bytes above 0x7f and ignores empty phrases', () => {
    const m = new PhraseMatcher(['', '\xe9t\xe9', 'x']);
    expect(m.find('l\xe9t\xe9')).toBe('\xe9t\xe9');
    expect(m.find('\xc9T\xc9')).toBeNull(); // only ASCII letters fold
    expect(m.size).toBe(2);
  });
});
