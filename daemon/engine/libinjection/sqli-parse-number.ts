/** Tokenizer parsers for numbers (decimal, hex, binary, exponents, Oracle suffixes) and '$'. */
import { parseWord } from './sqli-parse-word.js';
import {
  BINARY_DIGITS, HEX_DIGITS, MONEY_CHARS, MONEY_TAG_CHARS, SQL_WHITE, isDigit, spanOf,
} from './sqli-scan.js';
import type { SqliState } from './sqli-state.js';
import { TYPE_BAREWORD, TYPE_DOT, TYPE_NUMBER, TYPE_STRING } from './sqli-token.js';

export function parseNumber(sf: SqliState): number {
  const { s, slen } = sf;
  let pos = sf.pos;
  const start = pos;

  if (s.charCodeAt(pos) === 0x30 && pos + 1 < slen) {
    const c1 = s.charCodeAt(pos + 1);
    const digits = c1 === 0x58 || c1 === 0x78 ? HEX_DIGITS : c1 === 0x42 || c1 === 0x62 ? BINARY_DIGITS : null;
    if (digits !== null) {
      const xlen = spanOf(s, pos + 2, slen, digits);
      if (xlen === 0) {
        sf.current.assign(TYPE_BAREWORD, pos, 2, s, pos);
        return pos + 2;
      }
      sf.current.assign(TYPE_NUMBER, pos, 2 + xlen, s, pos);
      return pos + 2 + xlen;
    }
  }

  while (pos < slen && isDigit(s.charCodeAt(pos))) pos++;
  if (pos < slen && s.charCodeAt(pos) === 0x2e) {
    pos++;
    while (pos < slen && isDigit(s.charCodeAt(pos))) pos++;
    if (pos - start === 1) {
      // a lone '.'
      sf.current.assignByte(TYPE_DOT, start, s);
      return pos;
    }
  }

  let haveE = false;
  let haveExp = false;
  if (pos < slen) {
    const c = s.charCodeAt(pos);
    if (c === 0x45 || c === 0x65) {
      haveE = true;
      pos++;
      if (pos < slen && (s.charCodeAt(pos) === 0x2b || s.charCodeAt(pos) === 0x2d)) pos++;
      while (pos < slen && isDigit(s.charCodeAt(pos))) {
        haveExp = true;
        pos++;
      }
    }
  }

  // Oracle's float/double suffix: "1.2f" and "1d", but "123FROM" is "123" then a word
  if (pos < slen) {
    const c = s.charCodeAt(pos);
    if (c === 0x64 || c === 0x44 || c === 0x66 || c === 0x46) {
      if (pos + 1 === slen) {
        pos++;
      } else {
        const next = s.charCodeAt(pos + 1);
        if (SQL_WHITE[next] === 1 || next === 0x3b || next === 0x75 || next === 0x55) pos++;
      }
    }
  }

  // "1234.e", "10.10E", "1E+": an exponent mark without digits makes a word, not a number
  // (libinjection at the pinned commit; later versions drop the token instead).
  sf.current.assign(haveE && !haveExp ? TYPE_BAREWORD : TYPE_NUMBER, start, pos - start, s, start);
  return pos;
}

/**
 * '$': money ("$1,000.00" is a number), PostgreSQL dollar-quoted strings ("$$...$$",
 * "$tag$...$tag$"), or a bareword '$'.
 */
export function parseMoney(sf: SqliState): number {
  const { s, slen, pos } = sf;
  const current = sf.current;
  if (pos + 1 === slen) {
    current.assignByte(TYPE_BAREWORD, pos, s);
    return slen;
  }

  let xlen = spanOf(s, pos + 1, slen, MONEY_CHARS);
  if (xlen === 0) {
    if (s.charCodeAt(pos + 1) === 0x24) {
      const end = s.indexOf('$$', pos + 2);
      current.strOpen = 0x24;
      if (end < 0) {
        current.assign(TYPE_STRING, pos + 2, slen - (pos + 2), s, pos + 2);
        current.strClose = 0;
        return slen;
      }
      current.assign(TYPE_STRING, pos + 2, end - (pos + 2), s, pos + 2);
      current.strClose = 0x24;
      return end + 2;
    }

    xlen = spanOf(s, pos + 1, slen, MONEY_TAG_CHARS);
    if (xlen === 0 || pos + xlen + 1 === slen || s.charCodeAt(pos + xlen + 1) !== 0x24) {
      current.assignByte(TYPE_BAREWORD, pos, s);
      return pos + 1;
    }

    // "$tag$": the string ends at the next "$tag$"
    const tag = s.substring(pos, pos + xlen + 2);
    const bodyStart = pos + xlen + 2;
    const end = s.indexOf(tag, bodyStart);
    current.strOpen = 0x24;
    if (end < 0) {
      current.assign(TYPE_STRING, bodyStart, slen - bodyStart, s, bodyStart);
      current.strClose = 0;
      return slen;
    }
    current.assign(TYPE_STRING, bodyStart, end - bodyStart, s, bodyStart);
    current.strClose = 0x24;
    return end + xlen + 2;
  }
  if (xlen === 1 && s.charCodeAt(pos + 1) === 0x2e) return parseWord(sf);

  current.assign(TYPE_NUMBER, pos, 1 + xlen, s, pos);
  return pos + 1 + xlen;
}
