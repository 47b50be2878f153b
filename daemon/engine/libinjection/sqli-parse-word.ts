/** Tokenizer parsers for bare words, keywords and SQL Server's [bracketed] names. */
import { lookupRange } from './sqli-keywords.js';
import { WORD_END, spanUntil } from './sqli-scan.js';
import type { SqliState } from './sqli-state.js';
import { TOKEN_VALUE_MAX, TYPE_BAREWORD } from './sqli-token.js';

/**
 * A word runs to the next WORD_END byte. When the part before a '.' or '`' inside it is a
 * keyword ("SELECT.1", "SELECT`col`"), only that part is the token. Otherwise the whole word is
 * looked up (words of 32 bytes or more stay barewords).
 */
export function parseWord(sf: SqliState): number {
  const { s, slen, pos } = sf;
  const current = sf.current;
  const wlen = spanUntil(s, pos, slen, WORD_END);
  const kept = wlen < TOKEN_VALUE_MAX ? wlen : TOKEN_VALUE_MAX;

  for (let i = 0; i < kept; i++) {
    const c = s.charCodeAt(pos + i);
    if (c === 0x2e || c === 0x60) {
      const type = lookupRange(s, pos, i);
      if (type !== 0 && type !== TYPE_BAREWORD) {
        current.clear();
        current.assign(type, pos, i, s, pos);
        return pos + i;
      }
    }
  }

  let type = TYPE_BAREWORD;
  if (wlen <= TOKEN_VALUE_MAX) {
    const found = lookupRange(s, pos, wlen);
    if (found !== 0) type = found;
  }
  current.assign(type, pos, wlen, s, pos);
  return pos + wlen;
}

/** "[name]" (SQL Server) is one bare word, brackets included, up to the first ']'. */
export function parseBword(sf: SqliState): number {
  const { s, slen, pos } = sf;
  const close = s.indexOf(']', pos);
  if (close < 0) {
    sf.current.assign(TYPE_BAREWORD, pos, slen - pos, s, pos);
    return slen;
  }
  sf.current.assign(TYPE_BAREWORD, pos, close - pos + 1, s, pos);
  return close + 1;
}
