/**
 * libinjection's own SQLi test vectors, one test per file: tokens (test-tokens-*), folding
 * (test-folding-*) and detection (test-sqli-*). Output is printed as the reference test
 * driver prints it and must match byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { fold } from '../../../../daemon/engine/libinjection/sqli-fold.js';
import { FLAG_QUOTE_NONE, FLAG_SQL_ANSI, SqliState } from '../../../../daemon/engine/libinjection/sqli-state.js';
import { tokenize } from '../../../../daemon/engine/libinjection/sqli-tokenizer.js';
import { detectSQLi } from '../../../../daemon/engine/libinjection/index.js';
import { readVector, rtrim, vectorFiles } from './vector-file.js';

function printTokens(input: string): string {
  const sf = new SqliState();
  sf.init(input, FLAG_QUOTE_NONE | FLAG_SQL_ANSI);
  let out = '';
  while (tokenize(sf)) out += `${sf.current.toString()}\n`;
  return rtrim(out);
}

function printFolded(input: string): string {
  const sf = new SqliState();
  sf.init(input, FLAG_QUOTE_NONE | FLAG_SQL_ANSI);
  const n = fold(sf);
  let out = '';
  for (let i = 0; i < n; i++) out += `${sf.tokenvec[i].toString()}\n`;
  return rtrim(out);
}

const printSqli = (input: string): string => {
  const r = detectSQLi(input);
  return r.isSqli ? r.fingerprint : '';
};

const suites: Array<[string, (input: string) => string]> = [
  ['test-tokens-', printTokens],
  ['test-folding-', printFolded],
  ['test-sqli-', printSqli],
];

for (const [prefix, print] of suites) {
  describe(`libinjection ${prefix}* vectors`, () => {
    const files = vectorFiles(prefix);
    it('finds the vector files', () => {
      expect(files.length).toBeGreaterThan(40);
    });
    for (const file of files) {
      it(file, () => {
        const v = readVector(file);
        expect(print(v.input), `${v.title}\ninput: ${JSON.stringify(v.input)}`).toBe(v.expected);
      });
    }
  });
}
