// Table-driven: each row is [input, expected output] as ModSecurity v2.9's C implementation gives it.
import { describe, expect, it } from 'vitest';
import { transformations } from '../../../../daemon/engine/transformations/index.js';
import { transformationCases } from './transformation-cases.js';

describe('transformations: ModSecurity v2 behaviour', () => {
  for (const [name, rows] of Object.entries(transformationCases)) {
    describe(name, () => {
      const fn = transformations.get(name)!.apply;
      it.each(rows)('%j -> %j', (input, expected) => {
        expect(fn).toBeTypeOf('function');
        expect(fn(input)).toBe(expected);
      });
    });
  }
});

describe('transformation registry', () => {
  it('has every transformation CRS uses, British and American spellings', () => {
    const crs = ['base64decode', 'cmdline', 'compresswhitespace', 'cssdecode', 'hexencode', 'htmlentitydecode', 'jsdecode',
      'length', 'lowercase', 'normalisepath', 'normalizepath', 'normalizepathwin', 'normalisepathwin', 'removenulls',
      'removewhitespace', 'replacecomments', 'sha1', 'urldecode', 'urldecodeuni', 'utf8tounicode', 'base64decodeext',
      'escapeseqdecode', 'hexdecode', 'md5', 'removecomments', 'removecommentschar', 'sqlhexdecode', 'trim', 'trimleft',
      'trimright', 'uppercase', 'urlencode', 'base64encode', 'replacenulls', 'parityeven7bit', 'parityodd7bit', 'parityzero7bit'];
    for (const name of crs) expect(transformations.has(name), name).toBe(true);
    expect(transformations.has('none')).toBe(false);
  });
  it('keeps every output a byte string', () => {
    const input = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('') + '%u4e2d\\u4e2d&#x4e2d;\\4e2d';
    for (const [name, { apply }] of transformations) {
      const out = apply(input);
      for (let i = 0; i < out.length; i++) expect(out.charCodeAt(i), name).toBeLessThan(256);
    }
  });
});
