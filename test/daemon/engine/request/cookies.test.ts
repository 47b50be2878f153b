// Cookie header parsing as ModSecurity v2 does it (daemon/engine/request/cookies.ts), against the
// split-and-trim definition it replaced, on fixed cases and generated headers.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCookieHeader } from '../../../../daemon/engine/request/cookies.js';

/** The previous implementation, kept as the definition. */
function reference(header: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const rawPart of header.split(';')) {
    const part = rawPart.replace(/^[ \t]+|[ \t]+$/g, '');
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) out.push([part, '']);
    else out.push([part.slice(0, eq).replace(/[ \t]+$/, ''), part.slice(eq + 1).replace(/^[ \t]+/, '')]);
  }
  return out;
}

const parse = (header: string) => {
  const out: Array<[string, string]> = [];
  parseCookieHeader(header, out);
  return out;
};

describe('parseCookieHeader', () => {
  it('splits, trims and keeps values as sent', () => {
    expect(parse('_ga=GA1.1.1234; wordpress_test_cookie=WP%20Cookie%20check;theme = dark ;flag; ;=v;a==b')).toEqual([
      ['_ga', 'GA1.1.1234'], ['wordpress_test_cookie', 'WP%20Cookie%20check'], ['theme', 'dark'], ['flag', ''], ['', 'v'], ['a', '=b'],
    ]);
    expect(parse('')).toEqual([]);
    expect(parse(' ;\t; ')).toEqual([]);
    expect(parse('\tx\t=\t1\t')).toEqual([['x', '1']]);
  });

  it('agrees with the split-and-trim definition on generated headers', () => {
    const char = fc.constantFrom(';', '=', ' ', '\t', 'a', 'b', '%', '"', '\u00e9');
    fc.assert(fc.property(fc.array(char, { maxLength: 40 }).map((cs) => cs.join('')), (header) => {
      expect(parse(header)).toEqual(reference(header));
    }), { numRuns: 2000 });
  });
});
