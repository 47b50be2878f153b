// The transformation cache (trie steps, results on the entry, steps skipped by trigger bytes,
// a no-op prefix answered by the step alone) must give exactly what applying the chain's
// functions one after the other gives. Random chains sharing prefixes, over random values,
// through the real registries and a real transaction.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Waf } from '../../../../daemon/engine/waf.js';
import { defaultRegistries } from '../../../../daemon/engine/default-registries.js';
import { transformations } from '../../../../daemon/engine/transformations/index.js';
import { request } from '../helpers/request.js';

const NAMES = [...transformations.keys()];
const SNIPPETS = ['%41', '%u0041', '+', '&lt;', '&#65;', '\\x41', '\\n', '/*c*/', '<!--', '--', '#', '0x41', '\xc3\xa9', '  ', ' /',
  './', '/../', '//', '\\', 'A', 'b', 'Z', '\0', '\t', '\xa0', '=', ';', "'", '"', 'select', 'X'];

const chain = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 });
const value = fc.array(fc.constantFrom(...SNIPPETS), { maxLength: 8 }).map((parts) => parts.join(''));

/** Every byte as %XX, so the argument arrives as exactly these bytes. */
function byteEscape(bytes: string): string {
  return [...bytes].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
}

function applyChain(names: readonly string[], input: string): string {
  return names.reduce((v, name) => transformations.get(name)!.apply(v), input);
}

describe('transformation chains through the cache', () => {
  it('equal the functions applied one after the other, for every rule and value', () => {
    fc.assert(fc.property(fc.array(chain, { minLength: 1, maxLength: 8 }), fc.array(value, { minLength: 1, maxLength: 4 }), (chains, values) => {
      // Each chain also appears with every prefix, so steps share trie nodes in every way.
      const all = chains.flatMap((c) => c.map((_, i) => c.slice(0, i + 1)));
      const rules = all.map((c, i) => `SecRule ARGS "@unconditionalMatch" "id:${i + 1},phase:2,pass,log,t:none,${c.map((n) => `t:${n}`).join(',')}"`);
      const waf = Waf.load([{ text: `SecRuleEngine DetectionOnly\n${rules.join('\n')}` }], { registries: defaultRegistries });
      const query = values.map((v, i) => `a${i}=${byteEscape(v)}`).join('&');
      const tx = waf.newTransaction(request(`/?${query}`));
      tx.processRequest();
      expect(tx.matches).toHaveLength(all.length * values.length);
      for (const m of tx.matches) {
        const names = all[m.id - 1];
        const arg = Number(m.matchedVarName.slice('ARGS:a'.length));
        expect(m.matchedValue, `${names.join(',')} on ${JSON.stringify(values[arg])}`).toBe(applyChain(names, values[arg]));
      }
    }), { numRuns: 150 });
  });
});
