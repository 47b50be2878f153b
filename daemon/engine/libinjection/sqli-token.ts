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
  /** The token's text, cut to TOKEN_VALUE_MAX bytes; its length is libinjection's `len`. */
  val = '';
  /** Quote chars around a string token (0 = none): `'`, `"`, '`', 'q' (Oracle), 'u', '$'. */
  strOpen = 0;
  strClose = 0;
  /** Number of '@' before a variable (1 or 2). */
  count = 0;

  clear(): void {
    this.type = TYPE_NONE;
    this.pos = 0;
    this.val = '';
    this.strOpen = 0;
    this.strClose = 0;
    this.count = 0;
  }

  /** Sets type, position and text; leaves the quote chars and count as they are, like st_assign. */
  assign(type: number, pos: number, len: number, input: string, from: number): void {
    this.type = type;
    this.pos = pos;
    this.val = input.substring(from, from + (len < TOKEN_VALUE_MAX ? len : TOKEN_VALUE_MAX));
  }

  assignChar(type: number, pos: number, ch: string): void {
    this.type = type;
    this.pos = pos;
    this.val = ch;
  }

  copyFrom(src: Token): void {
    this.type = src.type;
    this.pos = src.pos;
    this.val = src.val;
    this.strOpen = src.strOpen;
    this.strClose = src.strClose;
    this.count = src.count;
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

/** Compares a token's text, ASCII case-insensitively, with an upper-case literal (cstrcasecmp). */
export function valEqualsUpper(val: string, upper: string): boolean {
  if (val.length !== upper.length) return false;
  for (let i = 0; i < val.length; i++) {
    let c = val.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) c -= 0x20;
    if (c !== upper.charCodeAt(i)) return false;
  }
  return true;
}

export function isUnaryOp(t: Token): boolean {
  if (t.type !== TYPE_OPERATOR) return false;
  const v = t.val;
  switch (v.length) {
    case 1:
      return v === '+' || v === '-' || v === '!' || v === '~';
    case 2:
      return v === '!!';
    case 3:
      return valEqualsUpper(v, 'NOT');
    default:
      return false;
  }
}

export function isArithmeticOp(t: Token): boolean {
  const v = t.val;
  return t.type === TYPE_OPERATOR && v.length === 1 && (v === '*' || v === '/' || v === '-' || v === '+' || v === '%');
}
