// The @rx byte gate (rules/required-bytes.ts, rules/byte-gate.ts): a value that holds no byte
// of the set a regex needs is not handed to the regex. Sound over every fixed @rx of CRS 3.3.4
// (generated matching strings, CRS regression payloads, random strings of the needed bytes),
// and in the rule loop negation, captures and values that are not byte strings behave as
// without it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePcre, type PcreRegex } from '../../../../daemon/engine/regex/index.js';
import { parsePcre } from '../../../../daemon/engine/regex/parse.js';
import { enableRegexBacktrackFallback } from '../../../../daemon/engine/regex-safety.js';
import { requiredBytes, type ByteSet } from '../../../../daemon/engine/rules/required-bytes.js';
import { gateMasksOf, mayMatch } from '../../../../daemon/engine/rules/byte-gate.js';
import { VarEntry } from '../../../../daemon/engine/collections/keyed-list.js';
import { Waf } from '../../../../daemon/engine/waf.js';
import { defaultRegistries } from '../../../../daemon/engine/default-registries.js';
import { collectRx, CRS_RULES_DIR } from '../regex/crs-rx.js';
import { crsPayloads } from '../helpers/crs-corpus.js';
import { generateMatch, seededRandom } from '../helpers/match-generator.js';
import { request } from '../helpers/request.js';

const PCRE_DEFAULTS = { caseless: false, dotall: true, multiline: false, extended: false };

function needs(pattern: string): string | null {
  const set = requiredBytes(parsePcre(pattern, PCRE_DEFAULTS).ast);
  return set === null ? null : String.fromCharCode(...[...set].sort((a, b) => a - b));
}

/** The gate as the rule loop applies it: may `pattern`'s regex match `value`? */
function passes(set: ByteSet, value: string): boolean {
  const { lo, hi } = gateMasksOf(set);
  return mayMatch(new VarEntry('k', value), lo, hi);
}

describe('requiredBytes', () => {
  it('a literal needs itself, a caseless letter either case, a class its members', () => {
    expect(needs("'")).toBe("'");
    expect(needs('(?i)select')).not.toBeNull();
    expect(needs('(?i)<script')).toBe('<');
    expect(needs('[;|&]')).toBe('&;|');
    expect(needs('(?i)x')).toBe('Xx');
  });

  it('a sequence takes its rarest item; an alternation unites its branches', () => {
    expect(needs('union\\s+select\\s*\\(')).toBe('(');
    expect(needs("a'|b\"")).toBe('"\'');
    expect(needs('(?:ab)+;')).toBe(';');
  });

  it('knows nothing of what may be absent or only looked at', () => {
    expect(needs('a?')).toBeNull();
    expect(needs('[<]*')).toBeNull();
    expect(needs('x|')).toBeNull();
    expect(needs('(?=<)')).toBeNull();
    expect(needs('.+')).toBeNull();
    expect(needs('^$')).toBeNull();
    expect(needs('(a)\\1')).toBe('a');
  });

  it('a negated class needs the bytes outside it', () => {
    const set = requiredBytes(parsePcre('[^a-z]', PCRE_DEFAULTS).ast)!;
    expect(set.has(0x61)).toBe(false);
    expect(set.has(0x27)).toBe(true);
    expect(set.has(0xff)).toBe(true);
  });
});

describe('byte gate masks', () => {
  it('passes a value holding a needed byte, in either case for letters, and stops one without', () => {
    const set = requiredBytes(parsePcre("(?i)['u]", PCRE_DEFAULTS).ast)!;
    expect(passes(set, "it's")).toBe(true);
    expect(passes(set, 'UNION')).toBe(true);
    expect(passes(set, '59.9')).toBe(false);
    expect(passes(set, '')).toBe(false);
  });

  it('never stops a value holding a char above 0xff (not a byte string)', () => {
    const set = requiredBytes(parsePcre("'", PCRE_DEFAULTS).ast)!;
    expect(passes(set, 'abc\u0100')).toBe(true);
  });
});

// As the Waf does before compiling: some generated strings make a CRS regex backtrack a lot.
enableRegexBacktrackFallback();
const crs: Array<{ where: string; re: PcreRegex; set: ByteSet | null }> = collectRx(CRS_RULES_DIR)
  .filter((site) => !site.pattern.includes('%{'))
  .map((site) => {
    const re = compilePcre(site.pattern);
    return { where: `${site.file}:${site.line}`, re, set: requiredBytes(re.ast) };
  });

function checkInput(input: string): void {
  for (const g of crs) {
    if (g.set === null || passes(g.set, input)) continue;
    if (g.re.regex.test(input)) throw new Error(`${g.where}: the gate stopped ${JSON.stringify(input)}, which the regex matches`);
  }
}

describe('byte gate soundness over CRS 3.3.4', () => {
  it('gates most CRS regexes, and stops ordinary values for many of them', () => {
    expect(crs.length).toBeGreaterThan(250);
    const gated = crs.filter((g) => g.set !== null);
    expect(gated.length).toBeGreaterThan(crs.length * 0.9);
    expect(gated.filter((g) => !passes(g.set!, '59.9')).length).toBeGreaterThan(crs.length / 2);
  });

  it('never stops a string generated to match the regex', () => {
    let matching = 0;
    for (const g of crs) {
      const random = seededRandom(g.where.length * 7919 + g.re.pattern.length);
      for (let i = 0; i < 24; i++) {
        const core = generateMatch(g.re.ast, random);
        if (core === undefined) continue;
        const padded = String.fromCharCode(random(256)) + core + String.fromCharCode(random(256));
        for (const s of [core, padded]) {
          if (!g.re.regex.test(s)) continue;
          matching++;
          if (g.set !== null && !passes(g.set, s)) throw new Error(`${g.where}: stopped ${JSON.stringify(s)}, which the regex matches`);
        }
      }
    }
    expect(matching).toBeGreaterThan(3000);
  }, 60_000);

  it('never stops a CRS regression-test payload the regex matches', () => {
    const payloads = crsPayloads();
    expect(payloads.length).toBeGreaterThan(2000);
    for (const p of payloads) checkInput(p);
  }, 120_000);

  it('never stops a random string of needed bytes and fragments (property)', () => {
    const neededBytes = [...new Set(crs.flatMap((g) => (g.set === null ? [] : [...g.set])))].map((b) => String.fromCharCode(b));
    const fragment = fc.oneof(
      fc.constantFrom(...neededBytes),
      fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('select', 'UNION', '<script', 'onerror=', '../', '/etc/passwd', '${', 'eval(', ' or 1=1', '--', '/*'),
    );
    fc.assert(fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => checkInput(parts.join(''))), { numRuns: 600, seed: 4 });
  }, 60_000);
});

describe('byte gate in the rule loop', () => {
  const waf = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule ARGS "@rx '" "id:1,phase:1,pass,log"
SecRule ARGS "!@rx '" "id:2,phase:1,pass,log"
SecRule ARGS "@rx (x)(y)" "id:3,phase:1,pass,log,capture,setvar:tx.cap=%{tx.1}%{tx.2}"
SecRule ARGS "@rx [^a-z0-9]" "id:4,phase:1,pass,log"` }], { registries: defaultRegistries });

  // 20 arguments so the list shares equal values (the distinct-value path) as well.
  const query = Array.from({ length: 20 }, (_, i) => `p${i}=${['abc', 'it%27s', 'xy', '%C4%80'][i % 4]}`).join('&');

  it('matches, negated matches and captures are those of the regex alone', () => {
    const tx = waf.newTransaction(request(`/?${query}`));
    tx.processRequest();
    const names = (id: number) => tx.matches.filter((m) => m.id === id).map((m) => m.matchedVarName);
    const where = (k: number) => Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 4 === k).map((i) => `ARGS:p${i}`);
    expect(names(1)).toEqual(where(1));
    expect(names(2)).toEqual(Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 4 !== 1).map((i) => `ARGS:p${i}`));
    expect(names(3)).toEqual(where(2));
    expect(tx.tx.get('cap')).toBe('xy');
    // The two UTF-8 bytes of U+0100 and the quote are outside [a-z0-9].
    expect(names(4)).toEqual([...where(1), ...where(3)].sort((a, b) => Number(a.slice(6)) - Number(b.slice(6))));
  });

  it('judges the transformed value, not the value the transformation started from', () => {
    const decoding = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule ARGS "@rx '" "id:5,phase:1,pass,log,t:none,t:urlDecodeUni"
SecRule ARGS "@rx '" "id:6,phase:1,pass,log,t:none,t:urlDecodeUni,multiMatch"` }], { registries: defaultRegistries });
    // q%2527 arrives as q%27: no quote until t:urlDecodeUni.
    for (const count of [1, 20]) {
      const tx = decoding.newTransaction(request(`/?${Array.from({ length: count }, (_, i) => `p${i}=${i % 2 ? 'abc' : 'q%2527'}`).join('&')}`));
      tx.processRequest();
      const expected = Array.from({ length: count }, (_, i) => i).filter((i) => i % 2 === 0).map((i) => `ARGS:p${i}`);
      expect(tx.matches.filter((m) => m.id === 5).map((m) => m.matchedVarName)).toEqual(expected);
      expect(tx.matches.filter((m) => m.id === 6).map((m) => m.matchedVarName)).toEqual(expected);
    }
  });
});
