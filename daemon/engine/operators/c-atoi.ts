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
  // Up to 9 digits fit a small integer exactly: summed as they are read, no substring (the
  // numeric operators read counts and scores such as "0" and "5" on every rule of a request).
  let small = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    if (i - start < 9) small = small * 10 + (c - 0x30);
    i++;
  }
  if (i === start) return 0;
  if (i - start <= 9) return negative ? 0 - small : small; // 0 - 0 is +0, as C has no -0 int
  let value = BigInt(text.slice(start, i));
  if (negative) value = -value;
  if (value > LONG_MAX) value = LONG_MAX;
  if (value < LONG_MIN) value = LONG_MIN;
  return Number(BigInt.asIntN(32, value));
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
