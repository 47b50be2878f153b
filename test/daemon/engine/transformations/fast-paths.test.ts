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
    const cmdLine = transformations.get('cmdline')!.apply;
    fc.assert(fc.property(bytes(['a', 'B', ' ', ' ', '/', '(', ',', ';', '\t', '"', '\\', '^', '\0', 'x', '\xc9']), (s) => {
      expect(cmdLine(s)).toBe(cmdLineReference(s));
    }), { numRuns: 2000 });
  });
  it('lowercase and uppercase touch ASCII letters only', () => {
    const lower = transformations.get('lowercase')!.apply;
    const upper = transformations.get('uppercase')!.apply;
    fc.assert(fc.property(bytes(['a', 'Z', '\xc0', '\xe0', '\xb5', '\xdf', '\xff', '1']), (s) => {
      expect(lower(s)).toBe(s.replace(/[A-Z]/g, (c) => c.toLowerCase()));
      expect(upper(s)).toBe(s.replace(/[a-z]/g, (c) => c.toUpperCase()));
    }), { numRuns: 1000 });
  });
  it('decoders return their input unchanged when it holds no trigger byte', () => {
    const plain = bytes(['a', 'Z', ' ', '/', '.', '-', '1']);
    for (const name of ['urldecode', 'urldecodeuni', 'htmlentitydecode', 'jsdecode', 'cssdecode', 'escapeseqdecode', 'utf8tounicode', 'removenulls', 'replacecomments']) {
      const fn = transformations.get(name)!.apply;
      fc.assert(fc.property(plain, (s) => { expect(fn(s), name).toBe(s); }), { numRuns: 200 });
    }
  });
});

/** APR's apr_base64_decode(), transcribed. */
function aprBase64Decode(input: string): string {
  const six = (k: number) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.indexOf(input[k] ?? '!');
  let run = 0;
  while (run < input.length && six(run) >= 0) run++;
  const out: number[] = [];
  let i = 0, left = run;
  while (left > 4) {
    out.push(((six(i) << 2) | (six(i + 1) >> 4)) & 255, ((six(i + 1) << 4) | (six(i + 2) >> 2)) & 255, ((six(i + 2) << 6) | six(i + 3)) & 255);
    i += 4;
    left -= 4;
  }
  if (left > 1) out.push(((six(i) << 2) | (six(i + 1) >> 4)) & 255);
  if (left > 2) out.push(((six(i + 1) << 4) | (six(i + 2) >> 2)) & 255);
  if (left > 3) out.push(((six(i + 2) << 6) | six(i + 3)) & 255);
  return String.fromCharCode(...out);
}

describe('base64Decode, short (own loop) and long (native) runs', () => {
  it('equals APR on random inputs', () => {
    const b64 = fc.string({ unit: fc.constantFrom(...'AQgw+/zZ09=x\0 \xff'.split('')), maxLength: 40 });
    const long = fc.string({ unit: fc.constantFrom(...'AQgw+/zZ09'.split('')), minLength: 250, maxLength: 300 });
    const base64Decode = transformations.get('base64decode')!.apply;
    fc.assert(fc.property(b64, (s) => { expect(base64Decode(s)).toBe(aprBase64Decode(s)); }), { numRuns: 3000 });
    fc.assert(fc.property(long, b64, (a, b) => { expect(base64Decode(a + b)).toBe(aprBase64Decode(a + b)); }), { numRuns: 500 });
  });
});
