/**
 * libinjection's byte classes, in the order the packed charmap numbers them. Each class picks
 * the parser that starts a token at a byte of that class (sqli-tokenizer.ts holds the table).
 */
export const CHAR_CLASS_NAMES = [
  'CHAR_WHITE', 'CHAR_BANG', 'CHAR_STR', 'CHAR_HASH', 'CHAR_MONEY', 'CHAR_OP1', 'CHAR_OP2',
  'CHAR_LEFTPARENS', 'CHAR_RIGHTPARENS', 'CHAR_UNARY', 'CHAR_COMMA', 'CHAR_DASH', 'CHAR_NUM',
  'CHAR_SLASH', 'CHAR_SEMICOLON', 'CHAR_OTHER', 'CHAR_VAR', 'CHAR_WORD', 'CHAR_BSTRING',
  'CHAR_ESTRING', 'CHAR_NQSTRING', 'CHAR_QSTRING', 'CHAR_USTRING', 'CHAR_XSTRING', 'CHAR_BWORD',
  'CHAR_BACK', 'CHAR_TICK', 'CHAR_LEFTBRACE', 'CHAR_RIGHTBRACE',
] as const;

export type CharClassName = (typeof CHAR_CLASS_NAMES)[number];
