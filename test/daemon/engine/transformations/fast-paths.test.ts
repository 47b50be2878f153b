// The fast paths ("nothing to do, return the input") must never skip work the C code would do:
// property tests against straightforward ports of ModSecurity's loops.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transformations } from '../../../../daemon/engine/transformations/index.js';

function cmdLineReference(s: string): string {
  let out = '';
  let space = false;
  for (const ch of s) {
    if (ch === '\0') break;
    if ('"\'\\^'.includes(ch)) continue;
    if (' ,;\t\r\n'.includes(ch)) {
      if (!space) { out += ' '; space = true; }
    } else if (ch === '/' || ch === '(') {
      if (space) out = out.slice(0, -1);
      space = false;
      out += ch;
    } else {
      out += ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : ch;
      space = false;
    }
  }
  return out;
}

const bytes = (alphabet: string[]) => fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 24 });

describe('transformation fast paths', () => {
  it('cmdLine equals the C loop', () => {
    const cmdLine = transformations.get('cmdline')!;
    fc.assert(fc.property(bytes(['a', 'B', ' ', ' ', '/', '(', ',', ';', '\t', '"', '\\', '^', '\0', 'x', '\xc9']), (s) => {
      expect(cmdLine(s)).toBe(cmdLineReference(s));
    }), { numRuns: 2000 });
  });
  it('lowercase and uppercase touch ASCII letters only', () => {
    const lower = transformations.get('lowercase')!;
    const upper = transformations.get('uppercase')!;
    fc.assert(fc.property(bytes(['a', 'Z', '\xc0', '\xe0', '\xb5', '\xdf', '\xff', '1']), (s) => {
      expect(lower(s)).toBe(s.replace(/[A-Z]/g, (c) => c.toLowerCase()));
      expect(upper(s)).toBe(s.replace(/[a-z]/g, (c) => c.toUpperCase()));
    }), { numRuns: 1000 });
  });
  it('decoders return their input unchanged when it holds no trigger byte', () => {
    const plain = bytes(['a', 'Z', ' ', '/', '.', '-', '1']);
    for (const name of ['urldecode', 'urldecodeuni', 'htmlentitydecode', 'jsdecode', 'cssdecode', 'escapeseqdecode', 'utf8tounicode', 'removenulls', 'replacecomments']) {
      const fn = transformations.get(name)!;
      fc.assert(fc.property(plain, (s) => { expect(fn(s), name).toBe(s); }), { numRuns: 200 });
    }
  });
});
