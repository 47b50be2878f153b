// The engine skips a transformation when the value holds none of its trigger bytes; that is
// only sound if such a value really comes back unchanged. Random byte strings are drawn from
// every byte except the triggers (with the characters each decoder cares about over-weighted
// so near misses like "0y", "-x-", "/x/" and "\xc3" appear often), and each transformation
// must return them unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transformations } from '../../../../daemon/engine/transformations/index.js';

const EVERY_BYTE = Array.from({ length: 256 }, (_, c) => String.fromCharCode(c));
const INTERESTING = [...'%+&\\#*-/.0xX;u\'" \t\r\n\v\f\0aAzZ<>!()^,', '\xa0', '\xc3', '\x80', '\xff'];
/** Snippets some transformation decodes or collapses; those holding a trigger byte are left out. */
const SNIPPETS = ['%41', '%u0041', '%uff41', '&lt;', '&#65;', '&#x41;', '\\x41', '\\u0041', '\\101', '\\n', '/*', '*/', '<!--', '-->', '--', '#',
  '0x41', '0X4a', '\xc3\xa9', '\xe2\x82\xac', '  ', ' /', ' (', './', '/.', '//', '..', '\\/', ' \t', 'A', 'z'];

/** Each registry entry with trigger bytes once (an alias shares its entry), under its first name. */
const gated = new Map<string, { fn: (input: string) => string; triggers: string }>();
const seen = new Set<unknown>();
for (const [name, definition] of transformations) {
  if (definition.triggerBytes === null || seen.has(definition)) continue;
  seen.add(definition);
  gated.set(name, { fn: definition.apply, triggers: definition.triggerBytes });
}

describe('transformation trigger bytes', () => {
  for (const [name, { fn, triggers }] of gated) {
    it(`${name}: a value without ${JSON.stringify(triggers.length > 12 ? triggers.slice(0, 12) + '...' : triggers)} comes back unchanged`, () => {
      const allowed = EVERY_BYTE.filter((c) => !triggers.includes(c));
      const favoured = INTERESTING.filter((c) => !triggers.includes(c));
      const snippets = SNIPPETS.filter((t) => ![...t].some((c) => triggers.includes(c)));
      const unit = fc.oneof(fc.constantFrom(...allowed), fc.constantFrom(...favoured), fc.constantFrom(...snippets));
      fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), (s) => {
        expect(fn(s)).toBe(s);
      }), { numRuns: 1500 });
    });
  }

  it('a trigger byte can make each transformation do something (the sets are not wider than needed)', () => {
    // One witness per transformation: a value holding a trigger byte that changes.
    const witnesses: Record<string, string> = {
      lowercase: 'A', uppercase: 'a', urldecode: '%41', urldecodeuni: '+', htmlentitydecode: '&lt;',
      jsdecode: '\\x41', cssdecode: '\\41', escapeseqdecode: '\\n', removenulls: 'a\0', replacenulls: '\0',
      removewhitespace: 'a b', compresswhitespace: 'a  b', removecomments: 'a#b', replacecomments: 'a/*b*/',
      removecommentschar: 'a--', cmdline: 'A', normalizepath: 'a/./b', normalizepathwin: 'a\\b',
      utf8tounicode: '\xc3\xa9', trim: ' a', trimleft: ' a', trimright: 'a ', sqlhexdecode: '0x41', parityzero7bit: '\xc1',
    };
    for (const [name, { fn }] of gated) {
      const witness = witnesses[name === 'normalisepath' ? 'normalizepath' : name === 'normalisepathwin' ? 'normalizepathwin' : name];
      expect(witness, name).toBeDefined();
      expect(fn(witness), name).not.toBe(witness);
    }
  });
});
