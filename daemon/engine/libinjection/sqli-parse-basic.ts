/**
 * Tokenizer parsers for white space, operators, punctuation and comments. Each takes the state
 * with `pos` at the token's first byte, fills `current` (or leaves it empty to skip bytes) and
 * returns the position after the token, as libinjection's parse_* functions do.
 */
import { lookupTwoBytes } from './sqli-keywords.js';
import { SQL_WHITE } from './sqli-scan.js';
import { FLAG_SQL_ANSI, FLAG_SQL_MYSQL, type SqliState } from './sqli-state.js';
import {
  TYPE_BACKSLASH, TYPE_COLON, TYPE_COMMENT, TYPE_EVIL, TYPE_NUMBER, TYPE_OPERATOR, TYPE_UNKNOWN,
} from './sqli-token.js';

export const parseWhite = (sf: SqliState): number => sf.pos + 1;

export function parseOperator1(sf: SqliState): number {
  sf.current.assignByte(TYPE_OPERATOR, sf.pos, sf.s);
  return sf.pos + 1;
}

export function parseOther(sf: SqliState): number {
  sf.current.assignByte(TYPE_UNKNOWN, sf.pos, sf.s);
  return sf.pos + 1;
}

/** Punctuation that is its own token type: ( ) , ; { } */
export function parseChar(sf: SqliState): number {
  sf.current.assignByte(sf.s.charCodeAt(sf.pos), sf.pos, sf.s);
  return sf.pos + 1;
}

export function parseEolComment(sf: SqliState): number {
  const { s, slen, pos } = sf;
  const nl = s.indexOf('\n', pos);
  if (nl < 0) {
    sf.current.assign(TYPE_COMMENT, pos, slen - pos, s, pos);
    return slen;
  }
  sf.current.assign(TYPE_COMMENT, pos, nl - pos, s, pos);
  return nl + 1;
}

/** '#' is an operator in ANSI SQL and an end-of-line comment in MySQL. */
export function parseHash(sf: SqliState): number {
  sf.statsCommentHash += 1;
  if (sf.flags & FLAG_SQL_MYSQL) {
    sf.statsCommentHash += 1;
    return parseEolComment(sf);
  }
  sf.current.assignByte(TYPE_OPERATOR, sf.pos, sf.s);
  return sf.pos + 1;
}

/**
 * "--" then white space or the end is a comment everywhere; "--x" is a comment in ANSI SQL but
 * two unary minus signs in MySQL; a single '-' is an operator.
 */
export function parseDash(sf: SqliState): number {
  const { s, slen, pos } = sf;
  const nextIsDash = pos + 1 < slen && s.charCodeAt(pos + 1) === 0x2d;
  if (nextIsDash && pos + 2 < slen && SQL_WHITE[s.charCodeAt(pos + 2)] === 1) return parseEolComment(sf);
  if (nextIsDash && pos + 2 === slen) return parseEolComment(sf);
  if (nextIsDash && sf.flags & FLAG_SQL_ANSI) {
    sf.statsCommentDdx += 1;
    return parseEolComment(sf);
  }
  sf.current.assignByte(TYPE_OPERATOR, pos, s);
  return pos + 1;
}

/**
 * '/' or a C comment. A comment that holds another "/*" (PostgreSQL nests them) or is a MySQL
 * conditional comment ("/*!") cannot be parsed consistently: it becomes TYPE_EVIL.
 */
export function parseSlash(sf: SqliState): number {
  const { s, slen, pos } = sf;
  if (pos + 1 === slen || s.charCodeAt(pos + 1) !== 0x2a) return parseOperator1(sf);
  const close = s.indexOf('*/', pos + 2);
  const clen = close < 0 ? slen - pos : close + 2 - pos;
  let type = TYPE_COMMENT;
  if (close >= 0) {
    // memchr2(cur + 2, ptr - (cur + 1), '/', '*'): a "/*" whose '*' is at most at `close`
    const open = s.indexOf('/*', pos + 2);
    if (open >= 0 && open + 1 <= close) type = TYPE_EVIL;
  }
  if (type === TYPE_COMMENT && pos + 2 < slen && s.charCodeAt(pos + 2) === 0x21) type = TYPE_EVIL;
  sf.current.assign(type, pos, clen, s, pos);
  return pos + clen;
}

/** "\N" is MySQL's alias for NULL (a number); any other backslash is its own token. */
export function parseBackslash(sf: SqliState): number {
  const { s, slen, pos } = sf;
  if (pos + 1 < slen && s.charCodeAt(pos + 1) === 0x4e) {
    sf.current.assign(TYPE_NUMBER, pos, 2, s, pos);
    return pos + 2;
  }
  sf.current.assignByte(TYPE_BACKSLASH, pos, s);
  return pos + 1;
}

/** Operators of one, two ("!=", "||", ...) or three ("<=>") bytes; a lone ':' is a colon. */
export function parseOperator2(sf: SqliState): number {
  const { s, slen, pos } = sf;
  if (pos + 1 >= slen) return parseOperator1(sf);
  const c0 = s.charCodeAt(pos);
  const c1 = s.charCodeAt(pos + 1);
  if (pos + 2 < slen && c0 === 0x3c && c1 === 0x3d && s.charCodeAt(pos + 2) === 0x3e) {
    sf.current.assign(TYPE_OPERATOR, pos, 3, s, pos);
    return pos + 3;
  }
  const type = lookupTwoBytes(c0, c1);
  if (type !== 0) {
    sf.current.assign(type, pos, 2, s, pos);
    return pos + 2;
  }
  if (c0 === 0x3a) {
    sf.current.assign(TYPE_COLON, pos, 1, s, pos);
    return pos + 1;
  }
  return parseOperator1(sf);
}
