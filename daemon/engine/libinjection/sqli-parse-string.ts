/**
 * Tokenizer parsers for quoted things: strings ('...', "...", N'...', E'...', U&'...', Oracle
 * q'[...]'), binary and hex literals (b'01', x'AF'), MySQL `backticks` and @variables.
 */
import { lookupRange } from './sqli-keywords.js';
import { parseWord } from './sqli-parse-word.js';
import { BINARY_DIGITS, HEX_DIGITS, VARIABLE_END, spanOf, spanUntil } from './sqli-scan.js';
import type { SqliState } from './sqli-state.js';
import type { Token } from './sqli-token.js';
import { TYPE_BAREWORD, TYPE_FUNCTION, TYPE_NUMBER, TYPE_STRING, TYPE_VARIABLE } from './sqli-token.js';

const SINGLE = 0x27;
const DOUBLE = 0x22;
const TICK = 0x60;
const BACKSLASH = 0x5c;

/** An odd run of backslashes ending at `end` (not before `start`) escapes the next byte. */
function isBackslashEscaped(s: string, end: number, start: number): boolean {
  let p = end;
  while (p >= start && s.charCodeAt(p) === BACKSLASH) p--;
  return ((end - p) & 1) === 1;
}

/**
 * A string delimited by `delim`, its body starting at pos + offset. offset 0 means the opening
 * quote is only assumed (the quote contexts of libinjection_is_sqli). A delimiter escaped by a
 * backslash or doubled ('it''s') does not end it; no closing delimiter runs it to the end.
 */
export function parseStringCore(s: string, len: number, pos: number, st: Token, delim: number, offset: number): number {
  const bodyStart = pos + offset;
  const quote = String.fromCharCode(delim);
  let q = s.indexOf(quote, bodyStart);
  st.strOpen = offset > 0 ? delim : 0;
  for (;;) {
    if (q < 0 || q >= len) {
      st.assign(TYPE_STRING, bodyStart, len - bodyStart, s, bodyStart);
      st.strClose = 0;
      return len;
    }
    if (isBackslashEscaped(s, q - 1, bodyStart)) {
      q = s.indexOf(quote, q + 1);
    } else if (q + 1 < len && s.charCodeAt(q + 1) === delim) {
      q = s.indexOf(quote, q + 2);
    } else {
      st.assign(TYPE_STRING, bodyStart, q - bodyStart, s, bodyStart);
      st.strClose = delim;
      return q + 1;
    }
  }
}

export function parseString(sf: SqliState): number {
  return parseStringCore(sf.s, sf.slen, sf.pos, sf.current, sf.s.charCodeAt(sf.pos), 1);
}

/** N'...' (MySQL national charset) and E'...' (PostgreSQL escapes); otherwise a word. */
export function parseEstring(sf: SqliState): number {
  const { s, slen, pos } = sf;
  if (pos + 2 >= slen || s.charCodeAt(pos + 1) !== SINGLE) return parseWord(sf);
  return parseStringCore(s, slen, pos, sf.current, SINGLE, 2);
}

/** U&'...' (Unicode string); printed with 'u' for its quotes. */
export function parseUstring(sf: SqliState): number {
  const { s, slen, pos } = sf;
  if (pos + 2 < slen && s.charCodeAt(pos + 1) === 0x26 && s.charCodeAt(pos + 2) === SINGLE) {
    sf.pos += 2;
    const next = parseString(sf);
    sf.current.strOpen = 0x75;
    if (sf.current.strClose === SINGLE) sf.current.strClose = 0x75;
    return next;
  }
  return parseWord(sf);
}

const CLOSING_BRACKET: Record<number, number> = { 0x28: 0x29, 0x5b: 0x5d, 0x7b: 0x7d, 0x3c: 0x3e };

/** Oracle's q'<delim>...<delim>' (brackets close with their pair), at sf.pos + offset. */
function parseQstringCore(sf: SqliState, offset: number): number {
  const { s, slen } = sf;
  const pos = sf.pos + offset;
  if (pos >= slen || (s.charCodeAt(pos) !== 0x71 && s.charCodeAt(pos) !== 0x51) || pos + 2 >= slen || s.charCodeAt(pos + 1) !== SINGLE) {
    return parseWord(sf);
  }
  let ch = s.charCodeAt(pos + 2);
  // C compares a signed char: bytes >= 0x80 are negative, so "< 33" takes them too
  if (ch < 33 || ch >= 0x80) return parseWord(sf);
  ch = CLOSING_BRACKET[ch] ?? ch;

  const bodyStart = pos + 3;
  const end = s.indexOf(String.fromCharCode(ch) + "'", bodyStart);
  const current = sf.current;
  current.strOpen = 0x71;
  if (end < 0) {
    current.assign(TYPE_STRING, bodyStart, slen - bodyStart, s, bodyStart);
    current.strClose = 0;
    return slen;
  }
  current.assign(TYPE_STRING, bodyStart, end - bodyStart, s, bodyStart);
  current.strClose = 0x71;
  return end + 2;
}

export const parseQstring = (sf: SqliState): number => parseQstringCore(sf, 0);

/** N'...' or Oracle's nq'...'. */
export function parseNqstring(sf: SqliState): number {
  if (sf.pos + 2 < sf.slen && sf.s.charCodeAt(sf.pos + 1) === SINGLE) return parseEstring(sf);
  return parseQstringCore(sf, 1);
}

/** b'0101' and x'BEEF' are numbers; without the closing quote they are words. */
function parseQuotedDigits(sf: SqliState, digits: Uint8Array): number {
  const { s, slen, pos } = sf;
  if (pos + 2 >= slen || s.charCodeAt(pos + 1) !== SINGLE) return parseWord(sf);
  const wlen = spanOf(s, pos + 2, slen, digits);
  if (pos + 2 + wlen >= slen || s.charCodeAt(pos + 2 + wlen) !== SINGLE) return parseWord(sf);
  sf.current.assign(TYPE_NUMBER, pos, wlen + 3, s, pos);
  return pos + 2 + wlen + 1;
}

export const parseBstring = (sf: SqliState): number => parseQuotedDigits(sf, BINARY_DIGITS);
export const parseXstring = (sf: SqliState): number => parseQuotedDigits(sf, HEX_DIGITS);

/** `name`: a bare word to MySQL, or a function when the name is one. */
export function parseTick(sf: SqliState): number {
  const next = parseStringCore(sf.s, sf.slen, sf.pos, sf.current, TICK, 1);
  const t = sf.current;
  t.type = lookupRange(t.src, t.start, t.len) === TYPE_FUNCTION ? TYPE_FUNCTION : TYPE_BAREWORD;
  return next;
}

/** @name, @@name, and MySQL's @`name`, @'name', @"name". */
export function parseVar(sf: SqliState): number {
  const { s, slen } = sf;
  const current = sf.current;
  let pos = sf.pos + 1;
  if (pos < slen && s.charCodeAt(pos) === 0x40) {
    pos++;
    current.count = 2;
  } else {
    current.count = 1;
  }

  if (pos < slen) {
    const c = s.charCodeAt(pos);
    if (c === TICK || c === SINGLE || c === DOUBLE) {
      sf.pos = pos;
      const next = c === TICK ? parseTick(sf) : parseString(sf);
      current.type = TYPE_VARIABLE;
      return next;
    }
  }

  const xlen = spanUntil(s, pos, slen, VARIABLE_END);
  current.assign(TYPE_VARIABLE, pos, xlen, s, pos);
  return pos + xlen;
}
