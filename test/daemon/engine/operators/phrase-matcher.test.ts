import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PhraseMatcher } from '../../../../daemon/engine/operators/phrase-matcher.js';
import { PhraseUnion } from '../../../../daemon/engine/operators/phrase-union.js';

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

describe('PhraseUnion (one scan for several lists)', () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'c', '\xe9'), minLength: 1, maxLength: 4 });
  const list = fc.array(word, { minLength: 0, maxLength: 8 });
  const input = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'B', 'x', '\xe9', '\u0100'), maxLength: 24 });

  it('reports for each list what that list alone reports, whatever the other lists hold', () => {
    fc.assert(fc.property(fc.array(list, { minLength: 1, maxLength: 4 }), fc.array(input, { minLength: 1, maxLength: 4 }), (lists, inputs) => {
      const matchers = lists.map((phrases) => new PhraseMatcher(phrases));
      const union = new PhraseUnion(matchers);
      // Several inputs in a row, some repeated: the union remembers only the last scan.
      for (const text of [...inputs, inputs[0]]) {
        for (let m = 0; m < matchers.length; m++) expect(union.find(text, m)).toBe(matchers[m].find(text));
      }
    }), { numRuns: 500 });
  });

  it('rules reading the same values share one union; each still answers with its own list', async () => {
    const { Waf } = await import('../../../../daemon/engine/waf.js');
    const { defaultRegistries } = await import('../../../../daemon/engine/default-registries.js');
    const waf = Waf.load([{ name: '<union test>', text: [
      'SecRuleEngine On',
      'SecResponseBodyAccess On',
      'SecResponseBodyMimeType text/html',
      'SecRule RESPONSE_BODY "@pm mysql_fetch ora-00" "id:1,phase:4,pass,capture,t:none,setvar:tx.sql=%{tx.0},log,msg:sql"',
      'SecRule RESPONSE_BODY "@pm Fatal error" "id:2,phase:4,pass,capture,t:none,setvar:tx.php=%{tx.0},log,msg:php"',
      'SecRule RESPONSE_BODY "@pm nothing-here" "id:3,phase:4,pass,t:none,log,msg:none"',
    ].join('\n') }], { registries: defaultRegistries });
    const shared = waf.ruleSet.phases[4].map((rule) => rule.evaluate);
    expect(shared.every((evaluate) => evaluate !== undefined && evaluate !== waf.ruleSet.phases[4][0].operator?.evaluate)).toBe(true);
    const tx = waf.newTransaction({ method: 'GET', uri: '/', protocol: 'HTTP/1.1', remoteAddr: '127.0.0.1', remotePort: 1, serverAddr: '127.0.0.1', serverPort: 80, headers: [['host', 'x']] });
    tx.processRequest();
    tx.processResponseHeaders({ status: 200, headers: [['content-type', 'text/html']] });
    tx.processResponseBody(Buffer.from('<p>PHP FATAL ERROR: call to mysql_fetch_array()</p>'));
    expect(tx.matches.map((m) => m.id)).toEqual([1, 2]);
    expect(tx.tx.get('sql')).toBe('mysql_fetch');
    expect(tx.tx.get('php')).toBe('Fatal'); // the phrase as written in the rule ("Fatal" and "error" are two)
  });
});
