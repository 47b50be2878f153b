/**
 * detectSQLi through the public entry point: well-known results from libinjection's
 * documentation and the false-positive reductions, plus properties over arbitrary byte strings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectSQLi } from '../../../../daemon/engine/libinjection/index.js';
import { fold } from '../../../../daemon/engine/libinjection/sqli-fold.js';
import { ONLY_EVIL_HAS_ONE_TYPE } from '../../../../daemon/engine/libinjection/sqli-keywords.js';
import { FLAG_QUOTE_NONE, FLAG_SQL_ANSI, SqliState } from '../../../../daemon/engine/libinjection/sqli-state.js';
import { TYPE_EVIL } from '../../../../daemon/engine/libinjection/sqli-token.js';

describe('detectSQLi', () => {
  it.each([
    ["1' OR '1'='1", 's&sos'],
    ["-1' and 1=1 union/* foo */select load_file('/etc/passwd')--", 's&1UE'],
    ['1 UNION SELECT username, password FROM users', '1UEnk'],
    ["admin'--", 'sc'],
    ['1 OR 1=1', '1&1'],
    ['"; DROP TABLE x; --', 's;Tnn'],
    ["1' AND SLEEP(5)#", 's&f(1'],
    ['1234--', '1c'],
  ])('flags %j with fingerprint %s', (input, fingerprint) => {
    expect(detectSQLi(input)).toEqual({ isSqli: true, fingerprint });
  });

  it.each([
    '', "O'Reilly", 'john.smith@example.com', 'select a book', "it's 3 o'clock",
    // "1 union" alone is common text; "foo --" is prose; a lone '#' comment is not enough
    '1 union', 'see more --', 'issue #12',
  ])('lets %j pass with an empty fingerprint', (input) => {
    expect(detectSQLi(input)).toEqual({ isSqli: false, fingerprint: '' });
  });

  it('treats sp_password in a trailing comment as SQLi (MS SQL hides it from the audit log)', () => {
    expect(detectSQLi('foo -- x').isSqli).toBe(false); // "nc" with a "--" comment is prose...
    expect(detectSQLi('foo -- sp_password')).toEqual({ isSqli: true, fingerprint: 'nc' });
  });

  it('reparses with MySQL comments when the ANSI pass met "#" or "--x"', () => {
    // ANSI: '#' is an operator, giving "1&1oo" (not listed); MySQL: '#' starts a comment
    expect(detectSQLi('1 or 1#\n=1')).toEqual({ isSqli: true, fingerprint: '1&1' });
    // ANSI: "a--b..." is "nc" (let go as prose); MySQL: "a - -b or 1=1" folds to "n&1"
    expect(detectSQLi('a--b or 1=1')).toEqual({ isSqli: true, fingerprint: 'n&1' });
  });

  it('bans MySQL conditional comments and nested C comments', () => {
    expect(detectSQLi('1 /*!union*/ select 1')).toEqual({ isSqli: true, fingerprint: 'X' });
  });

  it('works on byte strings with NULs and high bytes, and ignores chars above 0xFF', () => {
    // NUL and 0xA0 are white space to the SQL tokenizer
    expect(detectSQLi("1'\x00OR\xa01=1--")).toEqual({ isSqli: true, fingerprint: 's&1c' });
    expect(() => detectSQLi('\u0100\u2028 union select')).not.toThrow();
  });

  it('answers plain words and digit strings without tokenizing, and that shortcut is exact', () => {
    expect(ONLY_EVIL_HAS_ONE_TYPE).toBe(true);
    // the full algorithm on such values: at most one token, never evil, no comment that would
    // trigger the MySQL pass, no quote for the quote contexts -> never SQLi
    const sf = new SqliState();
    const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,40}$/);
    const digits = fc.stringMatching(/^[0-9]{1,40}$/);
    const keyword = fc.constantFrom('select', 'UNION', 'or', 'not', 'int', 'null', 'sleep', 'user', 'x', 'b', 'q', 'N', 'e', 'u', 'sp_password');
    fc.assert(
      fc.property(fc.oneof(word, digits, keyword), (input) => {
        sf.init(input, FLAG_QUOTE_NONE | FLAG_SQL_ANSI);
        const tokens = fold(sf);
        expect(tokens).toBeLessThanOrEqual(1);
        if (tokens === 1) expect(sf.tokenvec[0].type).not.toBe(TYPE_EVIL);
        expect(sf.statsCommentDdx + sf.statsCommentHash).toBe(0);
        expect(detectSQLi(input).isSqli).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws; a fingerprint is set exactly when the input is SQLi; calls do not leak state', () => {
    const byteString = fc.uint8Array({ maxLength: 80 }).map((b) => Buffer.from(b).toString('latin1'));
    const sqlish = fc
      .array(fc.constantFrom("'", '"', '`', ' ', '1', 'or', 'union', 'select', '--', '#', '/*', '*/', '(', ')', ',', ';', '@', '$', 'x', '\\', '=', 'e'), { maxLength: 20 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(byteString, sqlish), fc.oneof(byteString, sqlish), (a, b) => {
        const first = detectSQLi(a);
        expect(first.isSqli).toBe(first.fingerprint.length > 0);
        expect(first.fingerprint.length).toBeLessThanOrEqual(5);
        detectSQLi(b);
        expect(detectSQLi(a)).toEqual(first);
      }),
      { numRuns: 3000 },
    );
  });
});
