/**
 * libinjection_sqli_not_whitelist: a fingerprint on the SQLi list is still let go when its
 * shape is common in benign input ("1 union", "foo --", "'sexy and 17'", ...). Returns true
 * when the match stands.
 */
import type { SqliState } from './sqli-state.js';
import { TYPE_BAREWORD, TYPE_COMMENT, TYPE_KEYWORD, TYPE_NUMBER, TYPE_UNION } from './sqli-token.js';

export function notWhitelisted(sf: SqliState): boolean {
  const fp = sf.fingerprint;
  const tlen = fp.length;
  const v = sf.tokenvec;

  // MS SQL's audit log skips statements mentioning sp_password: an ending comment with it is SQLi
  if (tlen > 1 && fp.charCodeAt(tlen - 1) === TYPE_COMMENT && sf.s.includes('sp_password')) return true;

  if (tlen === 2) return twoTokens(sf);
  if (tlen === 3) {
    if (fp === 'sos' || fp === 's&s') {
      // ...foo' + 'bar... : both strings unquoted on the outside, same quote inside
      return v[0].strOpen === 0 && v[2].strClose === 0 && v[0].strClose === v[2].strOpen;
    }
    if (fp === 's&n' || fp === 'n&1' || fp === '1&1' || fp === '1&v' || fp === '1&s') {
      // 'sexy and 17' is not SQLi; 'sexy and 17<18' is
      return sf.statsTokens !== 3;
    }
    if (v[1].type === TYPE_KEYWORD) {
      // only "INTO OUTFILE" / "INTO DUMPFILE" in the middle is SQLi
      return v[1].len >= 5 && v[1].startsWithUpper('INTO');
    }
  }
  return true;
}

/** Two-token fingerprints are the hardest to tell from normal input. */
function twoTokens(sf: SqliState): boolean {
  const v = sf.tokenvec;
  const s = sf.s;
  if (sf.fingerprint.charCodeAt(1) === TYPE_UNION) {
    // "1 union" alone is common; with folding or comments around it, it is not
    return sf.statsTokens !== 2;
  }
  const second = v[1];
  if (second.byte(0) === 0x23) return false; // a '#' comment: too many false positives
  if (v[0].type === TYPE_BAREWORD && v[1].type === TYPE_COMMENT && second.byte(0) !== 0x2f) return false; // "foo --"
  if (v[0].type === TYPE_NUMBER && v[1].type === TYPE_COMMENT) {
    if (second.byte(0) === 0x2f) return true; // "1/*"
    if (sf.statsTokens > 2) return true; // folding happened
    // "1234--" or "1234 --" is SQLi; base64-ish "1234-ABCD--" is not: look at the byte after the number
    const at = v[0].len;
    const ch = byteAt(s, at);
    if (ch <= 32 || ch >= 0x80) return true; // white space (a signed char: high bytes count too)
    if (ch === 0x2f && byteAt(s, at + 1) === 0x2a) return true;
    if (ch === 0x2d && byteAt(s, at + 1) === 0x2d) return true;
    return false;
  }
  // "1--" at the very end is a scan; "--" followed by text is usually prose
  if (second.len > 2 && second.byte(0) === 0x2d) return false;
  return true;
}

/** A byte of the input, 0 past its end (the C code reads the NUL a C string ends with). */
function byteAt(s: string, i: number): number {
  return i < s.length ? s.charCodeAt(i) : 0;
}
