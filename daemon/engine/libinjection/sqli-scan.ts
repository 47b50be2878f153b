/**
 * Byte-class tables and scans the SQL tokenizer shares, built once at load. They reproduce the
 * C helpers (strchr-based sets, strlenspn / strlencspn, char_is_white) including their NUL
 * quirk: strchr finds the terminating NUL, so a NUL byte is in every set.
 */

function byteSet(chars: string): Uint8Array {
  const set = new Uint8Array(256);
  for (let i = 0; i < chars.length; i++) set[chars.charCodeAt(i)] = 1;
  set[0] = 1;
  return set;
}

/** char_is_white: space, \t \n \v \f \r, NUL (Oracle) and 0xA0 (Latin-1 no-break space). */
export const SQL_WHITE = byteSet(' \t\n\v\f\r\xa0');
/** Bytes that end a bare word. */
export const WORD_END = byteSet(' []{}<>:\\?=@!#~+-*/&|^%(),\';\t\n\v\f\r"\xa0');
/** Bytes that end a variable name after '@' or '@@'. */
export const VARIABLE_END = byteSet(' <>:\\?=@!#~+-*/&|^%(),\';\t\n\v\f\r\'`"');
export const BINARY_DIGITS = byteSet('01');
export const HEX_DIGITS = byteSet('0123456789ABCDEFabcdef');
export const MONEY_CHARS = byteSet('0123456789.,');
export const MONEY_TAG_CHARS = byteSet('abcdefghjiklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');

/** Length of the run of bytes in `set` starting at `from` (strlenspn). */
export function spanOf(s: string, from: number, end: number, set: Uint8Array): number {
  let i = from;
  while (i < end && set[s.charCodeAt(i)] === 1) i++;
  return i - from;
}

/** Length of the run of bytes NOT in `set` starting at `from` (strlencspn). */
export function spanUntil(s: string, from: number, end: number, set: Uint8Array): number {
  let i = from;
  while (i < end && set[s.charCodeAt(i)] !== 1) i++;
  return i - from;
}

export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
