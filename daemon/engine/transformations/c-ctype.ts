// C <ctype.h> classification in the "C" locale, which is what ModSecurity v2 runs under: ASCII only.

/** isspace(): space, \t, \n, \v, \f, \r. */
export function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isXDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

export function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export function toLower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

/** ModSecurity's x2c(): two hex digits to a byte, computed without validation, as in C. */
export function x2c(hi: number, lo: number): number {
  return ((hexNibble(hi) * 16) + hexNibble(lo)) & 0xff;
}

/** ModSecurity's xsingle2c(): one hex digit's value (garbage in, garbage out, like the C). */
export function hexNibble(c: number): number {
  return (c >= 0x41 ? ((c & 0xdf) - 0x41) + 10 : c - 0x30) & 0xff;
}

/** C's strtol(s, NULL, base) cast to unsigned char: overflow saturates to LONG_MAX, i.e. 0xff. */
export function strtolByte(digits: string, base: 8 | 10 | 16): number {
  if (digits.length <= 12) return parseInt(digits, base) & 0xff;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : '';
  const value = BigInt(prefix + digits);
  if (value > 0x7fffffffffffffffn) return 0xff;
  return Number(value & 0xffn);
}
