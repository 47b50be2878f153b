/**
 * libinjection_is_sqli: fingerprint the input as SQL as-is, then as if it followed a single
 * quote, then a double quote; each with ANSI comments, and again with MySQL comments when the
 * first pass met "--x" or '#'. The first fingerprint that is on the list and survives the
 * false-positive checks makes it SQLi.
 */
import { fold } from './sqli-fold.js';
import { ONLY_EVIL_HAS_ONE_TYPE, isKnownFingerprint } from './sqli-keywords.js';
import { notWhitelisted } from './sqli-not-whitelist.js';
import {
  FLAG_QUOTE_DOUBLE, FLAG_QUOTE_NONE, FLAG_QUOTE_SINGLE, FLAG_SQL_ANSI, FLAG_SQL_MYSQL, SqliState,
} from './sqli-state.js';
import { TYPE_BAREWORD, TYPE_COMMENT, TYPE_EVIL, TYPE_NONE } from './sqli-token.js';

export interface SqliResult {
  isSqli: boolean;
  /** The matching fingerprint (token types, e.g. "s&1c"); '' when the input is not SQLi. */
  fingerprint: string;
}

const NOT_SQLI: SqliResult = Object.freeze({ isSqli: false, fingerprint: '' });

/** Reused for every call: detection is synchronous, so calls never overlap. */
const state = new SqliState();

/**
 * libinjection_sqli_fingerprint + _check_fingerprint: folds `s` under `flags`, then checks the
 * token types against the fingerprint list and the false-positive reductions. The fingerprint
 * string is only built for a listed one.
 */
function foldAndCheck(sf: SqliState, s: string, flags: number): boolean {
  sf.init(s, flags);
  let tlen = fold(sf);
  const v = sf.tokenvec;

  // PHP's "magic" unclosed empty backtick at the end acts as a comment
  const last = v[tlen > 0 ? tlen - 1 : 0];
  if (tlen > 2 && last.type === TYPE_BAREWORD && last.strOpen === 0x60 && last.len === 0 && last.strClose === 0) {
    last.type = TYPE_COMMENT;
  }

  for (let i = 0; i < tlen; i++) {
    if (v[i].type === TYPE_EVIL) {
      // unparsable (nested or MySQL conditional comments, "{ ``"): one evil token
      v[0].type = TYPE_EVIL;
      v[0].setText('X');
      v[1].type = TYPE_NONE;
      tlen = 1;
      break;
    }
  }
  if (tlen === 0 || !isKnownFingerprint(v, tlen)) return false;
  let fp = '';
  for (let i = 0; i < tlen; i++) fp += String.fromCharCode(v[i].type);
  sf.fingerprint = fp;
  return notWhitelisted(sf);
}

/** The first pass met MySQL-style comments ("--x", '#'), so MySQL rules might read it differently. */
const reparseAsMysql = (sf: SqliState): boolean => sf.statsCommentDdx > 0 || sf.statsCommentHash > 0;

function tryContext(s: string, quote: number): boolean {
  if (foldAndCheck(state, s, quote | FLAG_SQL_ANSI)) return true;
  return reparseAsMysql(state) && foldAndCheck(state, s, quote | FLAG_SQL_MYSQL);
}

/** Bytes of a plain word: ASCII letters, digits, '_'. */
const WORD_BYTE = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f) WORD_BYTE[c] = 1;
}

/**
 * A value like "john_doe", "abc123" or "12345" is one token (a word or keyword starting with a
 * letter or '_', or a number of digits only): a one-type fingerprint, never on the list (see
 * ONLY_EVIL_HAS_ONE_TYPE), and with no quote or comment nothing else is tried. So the answer
 * is known without tokenizing; such values are most of what the engine sees.
 */
function isSingleWordOrNumber(s: string): boolean {
  const first = s.charCodeAt(0);
  const digitsOnly = first >= 0x30 && first <= 0x39;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff || WORD_BYTE[c] !== 1) return false;
    if (digitsOnly && (c < 0x30 || c > 0x39)) return false;
  }
  return true;
}

export function detectSQLi(input: string): SqliResult {
  if (input.length === 0) return NOT_SQLI;
  if (ONLY_EVIL_HAS_ONE_TYPE && isSingleWordOrNumber(input)) return NOT_SQLI;
  let hit = tryContext(input, FLAG_QUOTE_NONE) || (input.includes("'") && tryContext(input, FLAG_QUOTE_SINGLE));
  if (!hit && input.includes('"')) {
    // the double-quote context is tried with MySQL comments only, as in the reference
    hit = foldAndCheck(state, input, FLAG_QUOTE_DOUBLE | FLAG_SQL_MYSQL);
  }
  return hit ? { isSqli: true, fingerprint: state.fingerprint } : NOT_SQLI;
}
