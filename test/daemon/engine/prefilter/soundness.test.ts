// Soundness of the @rx literal prefilter over every @rx of CRS 3.3.4: whenever the gate says
// "skip", the regex does not match. Checked on strings generated to match each regex (where a
// wrong skip would show), on the CRS regression-test payloads, and on random strings made of the
// literals' own bytes and fragments; plus: the one-pass scan agrees with the plain reading of
// the clauses ("every clause has an atom that occurs in the case-folded value").
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePcre, type PcreRegex } from '../../../../daemon/engine/regex/index.js';
import { enableRegexBacktrackFallback } from '../../../../daemon/engine/regex-safety.js';
import { LiteralIndex, literalCondition, selectClauses, type Clause, type LiteralGate } from '../../../../daemon/engine/prefilter/index.js';
import { foldAscii } from '../../../../daemon/engine/prefilter/condition.js';
import { collectRx, CRS_RULES_DIR } from '../regex/crs-rx.js';
import { crsPayloads } from './crs-corpus.js';
import { generateMatch, seededRandom } from './match-generator.js';

interface Gated {
  where: string;
  re: PcreRegex;
  clauses: Clause[];
  gate: LiteralGate | undefined;
}

// As the Waf does before compiling: some generated strings make a CRS regex backtrack a lot.
enableRegexBacktrackFallback();
const index = new LiteralIndex();
const gated: Gated[] = collectRx(CRS_RULES_DIR)
  .filter((site) => !site.pattern.includes('%{'))
  .map((site) => {
    const re = compilePcre(site.pattern);
    const clauses = selectClauses(literalCondition(re.ast));
    return { where: `${site.file}:${site.line}`, re, clauses, gate: index.gate(clauses) };
  });
const scope = {};

/** Every gate that says "skip" for `input` belongs to a regex that does not match it. */
function checkInput(input: string): void {
  for (const g of gated) {
    if (g.gate === undefined || g.gate(input, scope)) continue;
    if (g.re.regex.test(input)) {
      throw new Error(`${g.where}: the prefilter skipped a value the regex matches: ${JSON.stringify(input)} (clauses ${JSON.stringify(g.clauses)})`);
    }
  }
}

function clausesHold(clauses: readonly Clause[], input: string): boolean {
  const folded = foldAscii(input);
  return clauses.every((clause) => clause.some((atom) => folded.includes(atom)));
}

const atoms = [...new Set(gated.flatMap((g) => g.clauses.flat()))];
const literalBytes = [...new Set(atoms.join(''))];

describe('@rx literal prefilter soundness (CRS 3.3.4)', () => {
  it('derives a filter for most CRS regexes, and skipping is possible at all', () => {
    expect(gated.length).toBeGreaterThan(250);
    const withGate = gated.filter((g) => g.gate !== undefined).length;
    expect(withGate).toBeGreaterThan(gated.length / 2);
    expect(gated.some((g) => g.gate !== undefined && !g.gate('hello world', scope))).toBe(true);
  });

  it('never skips a string generated to match the regex', () => {
    let matching = 0;
    for (const g of gated) {
      const random = seededRandom(g.where.length * 7919 + g.re.pattern.length);
      for (let i = 0; i < 24; i++) {
        const core = generateMatch(g.re.ast, random);
        if (core === undefined) continue;
        const input = String.fromCharCode(random(256)) + core + String.fromCharCode(random(256));
        for (const s of [core, input]) {
          if (!g.re.regex.test(s)) continue;
          matching++;
          if (g.gate !== undefined && !g.gate(s, scope)) {
            throw new Error(`${g.where}: skipped ${JSON.stringify(s)}, which the regex matches (clauses ${JSON.stringify(g.clauses)})`);
          }
        }
      }
    }
    expect(matching).toBeGreaterThan(3000);
  }, 60_000);

  it('never skips a CRS regression-test payload the regex matches', () => {
    const payloads = crsPayloads();
    expect(payloads.length).toBeGreaterThan(2000);
    for (const p of payloads) checkInput(p);
  }, 120_000);

  it('never skips a random string built from the literals (property)', () => {
    const fragment = fc.oneof(
      fc.tuple(fc.constantFrom(...atoms), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }))
        .map(([a, upper]) => [...a].map((c, i) => (upper[i % 40] ? c.toUpperCase() : c)).join('')),
      fc.constantFrom(...atoms).map((a) => a.slice(0, Math.max(1, a.length - 1))),
      fc.constantFrom(...literalBytes),
      fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
      fc.constantFrom(' ', '(', ')', '\'', '"', '/', '\\', '\n', '%', '<', '>', '=', ';'),
    );
    fc.assert(fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => checkInput(parts.join(''))), { numRuns: 600, seed: 6 });
  }, 60_000);

  it('the one-pass scan agrees with reading the clauses directly', { timeout: 60_000 }, () => {
    const samples = crsPayloads(200).slice(0, 400).concat(['', 'A', 'hello world', 'UNION SELECT', 'x\u0100y']);
    for (const s of samples) {
      for (const g of gated) {
        if (g.gate === undefined) continue;
        const expected = /[^\x00-\xff]/.test(s) || clausesHold(g.clauses, s);
        if (g.gate(s, scope) !== expected) throw new Error(`${g.where}: scan disagrees on ${JSON.stringify(s)}`);
      }
    }
  });
});
