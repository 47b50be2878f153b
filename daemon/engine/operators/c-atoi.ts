// C's atoi() as glibc does it: (int) strtol(s, NULL, 10). Leading whitespace and one sign are
// accepted, parsing stops at the first non-digit, overflow saturates to LONG_MIN/LONG_MAX and the
// cast to int then keeps the low 32 bits. ModSecurity's numeric operators compare these values.

const LONG_MAX = (1n << 63n) - 1n;
const LONG_MIN = -(1n << 63n);

export function atoi(text: string): number {
  let i = 0;
  const n = text.length;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  let negative = false;
  if (text[i] === '+' || text[i] === '-') negative = text[i++] === '-';
  const start = i;
  while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
  if (i === start) return 0;
  const digits = text.slice(start, i);
  if (digits.length <= 9) return negative ? -Number(digits) : Number(digits);
  let value = BigInt(digits);
  if (negative) value = -value;
  if (value > LONG_MAX) value = LONG_MAX;
  if (value < LONG_MIN) value = LONG_MIN;
  return Number(BigInt.asIntN(32, value));
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
