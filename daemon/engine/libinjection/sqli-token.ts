/**
 * A libinjection SQL token and its types. Types are the one-byte codes libinjection prints in
 * fingerprints ('s' string, 'n' bareword, '1' number, ...), kept as char codes so that the
 * tokenizer and the folder compare numbers, not strings.
 */

const code = (ch: string): number => ch.charCodeAt(0);

export const TYPE_NONE = 0;
export const TYPE_KEYWORD = code('k');
export const TYPE_UNION = code('U');
export const TYPE_GROUP = code('B');
export const TYPE_EXPRESSION = code('E');
export const TYPE_SQLTYPE = code('t');
export const TYPE_FUNCTION = code('f');
export const TYPE_BAREWORD = code('n');
export const TYPE_NUMBER = code('1');
export const TYPE_VARIABLE = code('v');
export const TYPE_STRING = code('s');
export const TYPE_OPERATOR = code('o');
export const TYPE_LOGIC_OPERATOR = code('&');
export const TYPE_COMMENT = code('c');
export const TYPE_COLLATE = code('A');
export const TYPE_LEFTPARENS = code('(');
export const TYPE_RIGHTPARENS = code(')');
export const TYPE_LEFTBRACE = code('{');
export const TYPE_RIGHTBRACE = code('}');
export const TYPE_DOT = code('.');
export const TYPE_COMMA = code(',');
export const TYPE_COLON = code(':');
export const TYPE_SEMICOLON = code(';');
export const TYPE_TSQL = code('T');
export const TYPE_UNKNOWN = code('?');
export const TYPE_EVIL = code('X');
export const TYPE_BACKSLASH = code('\\');

/** libinjection keeps at most 31 bytes of a token's text (a 32-byte C buffer with its NUL). */
export const TOKEN_VALUE_MAX = 31;

export class Token {
  type = TYPE_NONE;
  /** Offset of the token's text in the input. */
  pos = 0;
  /**
   * The token's text is src[start, start + len): a view of the input, so that reading a token
   * allocates nothing. len is cut to TOKEN_VALUE_MAX, as libinjection's `len` is.
   */
  src = '';
  start = 0;
  len = 0;
  /** Quote chars around a string token (0 = none): `'`, `"`, '`', 'q' (Oracle), 'u', '$'. */
  strOpen = 0;
  strClose = 0;
  /** Number of '@' before a variable (1 or 2). */
  count = 0;

  /** The text as a string (libinjection's `val`). */
  get val(): string {
    return this.src.substring(this.start, this.start + this.len);
  }

  /** Byte i of the text; 0 past its end, like the NUL after a C string. */
  byte(i: number): number {
    return i < this.len ? this.src.charCodeAt(this.start + i) : 0;
  }

  clear(): void {
    this.type = TYPE_NONE;
    this.pos = 0;
    this.src = '';
    this.start = 0;
    this.len = 0;
    this.strOpen = 0;
    this.strClose = 0;
    this.count = 0;
  }

  /** Sets type, position and text; leaves the quote chars and count as they are, like st_assign. */
  assign(type: number, pos: number, len: number, input: string, from: number): void {
    this.type = type;
    this.pos = pos;
    this.src = input;
    this.start = from;
    this.len = len < TOKEN_VALUE_MAX ? len : TOKEN_VALUE_MAX;
  }

  /** A one-byte token: the byte at input[pos]. */
  assignByte(type: number, pos: number, input: string): void {
    this.assign(type, pos, 1, input, pos);
  }

  /** Replaces the text (merged phrases such as "UNION ALL"). */
  setText(text: string): void {
    this.src = text;
    this.start = 0;
    this.len = text.length;
  }

  copyFrom(src: Token): void {
    this.type = src.type;
    this.pos = src.pos;
    this.src = src.src;
    this.start = src.start;
    this.len = src.len;
    this.strOpen = src.strOpen;
    this.strClose = src.strClose;
    this.count = src.count;
  }

  /** Is the text, ASCII case-insensitively, `upper` (cstrcasecmp against an upper-case literal)? */
  equalsUpper(upper: string): boolean {
    return this.len === upper.length && this.startsWithUpper(upper);
  }

  startsWithUpper(upper: string): boolean {
    if (this.len < upper.length) return false;
    for (let i = 0; i < upper.length; i++) {
      let c = this.src.charCodeAt(this.start + i);
      if (c >= 0x61 && c <= 0x7a) c -= 0x20;
      if (c !== upper.charCodeAt(i)) return false;
    }
    return true;
  }

  /** The token as libinjection's test driver prints it: `type text`, quotes and '@'s included. */
  toString(): string {
    let text = this.val;
    const nul = text.indexOf('\0');
    if (nul >= 0) text = text.substring(0, nul); // printed with %s
    if (this.type === TYPE_STRING || this.type === TYPE_VARIABLE) {
      if (this.strOpen !== 0) text = String.fromCharCode(this.strOpen) + text;
      if (this.strClose !== 0) text += String.fromCharCode(this.strClose);
    }
    if (this.type === TYPE_VARIABLE) text = '@'.repeat(this.count >= 2 ? 2 : this.count) + text;
    return `${String.fromCharCode(this.type)} ${text}`;
  }
}

export function isUnaryOp(t: Token): boolean {
  if (t.type !== TYPE_OPERATOR) return false;
  const c = t.byte(0);
  switch (t.len) {
    case 1:
      return c === 0x2b || c === 0x2d || c === 0x21 || c === 0x7e; // + - ! ~
    case 2:
      return c === 0x21 && t.byte(1) === 0x21; // !!
    case 3:
      return t.equalsUpper('NOT');
    default:
      return false;
  }
}

export function isArithmeticOp(t: Token): boolean {
  if (t.type !== TYPE_OPERATOR || t.len !== 1) return false;
  const c = t.byte(0);
  return c === 0x2a || c === 0x2f || c === 0x2d || c === 0x2b || c === 0x25; // * / - + %
}
