/**
 * libinjection's HTML5 tokenizer vectors (test-html5-*), one test per file, printed as the
 * reference driver prints tokens: TYPE,length,text.
 */
import { describe, expect, it } from 'vitest';
import { DATA_STATE, H5State } from '../../../../daemon/engine/libinjection/html5-tokenizer.js';
import { readVector, rtrim, vectorFiles } from './vector-file.js';

function printHtml5(input: string): string {
  const hs = new H5State();
  hs.init(input, DATA_STATE);
  let out = '';
  while (hs.next()) out += `${hs.tokenToString()}\n`;
  return rtrim(out);
}

describe('libinjection test-html5-* vectors', () => {
  const files = vectorFiles('test-html5-');
  it('finds the vector files', () => {
    expect(files.length).toBeGreaterThan(40);
  });
  for (const file of files) {
    it(file, () => {
      const v = readVector(file);
      expect(printHtml5(v.input), `${v.title}\ninput: ${JSON.stringify(v.input)}`).toBe(v.expected);
    });
  }
});
