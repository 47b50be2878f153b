/**
 * libinjection's SQL tokenizer: a 256-entry table maps each byte to the parser that starts a
 * token there (the table comes from sqlparse_data.json's charmap, unpacked once at load).
 */
import { CHAR_CLASS_NAMES, type CharClassName } from './sqli-char-classes.js';
import { CHARMAP_PACKED } from './sqli-data.generated.js';
import {
  parseBackslash, parseChar, parseDash, parseHash, parseOperator1, parseOperator2, parseOther,
  parseSlash, parseWhite,
} from './sqli-parse-basic.js';
import { parseMoney, parseNumber } from './sqli-parse-number.js';
import {
  parseBstring, parseEstring, parseNqstring, parseQstring, parseString, parseStringCore, parseTick,
  parseUstring, parseVar, parseXstring,
} from './sqli-parse-string.js';
import { parseBword, parseWord } from './sqli-parse-word.js';
import { FLAG_QUOTE_DOUBLE, FLAG_QUOTE_SINGLE, type SqliState } from './sqli-state.js';
import { TYPE_NONE } from './sqli-token.js';

type Parser = (sf: SqliState) => number;

const PARSER_BY_CLASS: Record<CharClassName, Parser> = {
  CHAR_WHITE: parseWhite,
  CHAR_BANG: parseOperator2,
  CHAR_STR: parseString,
  CHAR_HASH: parseHash,
  CHAR_MONEY: parseMoney,
  CHAR_OP1: parseOperator1,
  CHAR_OP2: parseOperator2,
  CHAR_LEFTPARENS: parseChar,
  CHAR_RIGHTPARENS: parseChar,
  CHAR_UNARY: parseOperator1,
  CHAR_COMMA: parseChar,
  CHAR_DASH: parseDash,
  CHAR_NUM: parseNumber,
  CHAR_SLASH: parseSlash,
  CHAR_SEMICOLON: parseChar,
  CHAR_OTHER: parseOther,
  CHAR_VAR: parseVar,
  CHAR_WORD: parseWord,
  CHAR_BSTRING: parseBstring,
  CHAR_ESTRING: parseEstring,
  CHAR_NQSTRING: parseNqstring,
  CHAR_QSTRING: parseQstring,
  CHAR_USTRING: parseUstring,
  CHAR_XSTRING: parseXstring,
  CHAR_BWORD: parseBword,
  CHAR_BACK: parseBackslash,
  CHAR_TICK: parseTick,
  CHAR_LEFTBRACE: parseChar,
  CHAR_RIGHTBRACE: parseChar,
};

const PARSER_BY_BYTE: Parser[] = Array.from(CHARMAP_PACKED, (ch) => PARSER_BY_CLASS[CHAR_CLASS_NAMES[ch.charCodeAt(0) - 0x41]]);

/**
 * Reads the next token into sf.current. Returns false at the end of the input. In a quote
 * context the first token is the string that the assumed opening quote starts.
 */
export function tokenize(sf: SqliState): boolean {
  const { s, slen } = sf;
  if (slen === 0) return false;
  const current = sf.current;
  current.clear();

  if (sf.pos === 0 && sf.flags & (FLAG_QUOTE_SINGLE | FLAG_QUOTE_DOUBLE)) {
    const delim = sf.flags & FLAG_QUOTE_SINGLE ? 0x27 : 0x22;
    sf.pos = parseStringCore(s, slen, 0, current, delim, 0);
    sf.statsTokens += 1;
    return true;
  }

  while (sf.pos < slen) {
    const c = s.charCodeAt(sf.pos);
    // Inputs are byte strings; a stray char above 0xFF is read as part of a word.
    sf.pos = (c < 256 ? PARSER_BY_BYTE[c] : parseWord)(sf);
    if (current.type !== TYPE_NONE) {
      sf.statsTokens += 1;
      return true;
    }
  }
  return false;
}
