/**
 * libinjection_is_sqli: fingerprint the input as SQL as-is, then as if it followed a single
 * quote, then a double quote; each with ANSI comments, and again with MySQL comments when the
 * first pass met "--x" or '#'. The first fingerprint that is on the list and survives the
 * false-positive checks makes it SQLi.
 */
import { fold } from './sqli-fold.js';
import { isKnownFingerprint } from './sqli-keywords.js';
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

export function detectSQLi(input: string): SqliResult {
  if (input.length === 0) return NOT_SQLI;
  let hit = tryContext(input, FLAG_QUOTE_NONE) || (input.includes("'") && tryContext(input, FLAG_QUOTE_SINGLE));
  if (!hit && input.includes('"')) {
    // the double-quote context is tried with MySQL comments only, as in the reference
    hit = foldAndCheck(state, input, FLAG_QUOTE_DOUBLE | FLAG_SQL_MYSQL);
  }
  return hit ? { isSqli: true, fingerprint: state.fingerprint } : NOT_SQLI;
}
