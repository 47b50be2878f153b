// Building byte strings (see ../CONTRACT.md) from char codes without one concatenation per byte.

const CHUNK = 8192;

/** The first `length` codes of `codes` as a string. */
export function fromCodes(codes: ArrayLike<number>, length = codes.length): string {
  if (length <= CHUNK) {
    return String.fromCharCode.apply(null, Array.prototype.slice.call(codes, 0, length) as number[]);
  }
  const parts: string[] = [];
  for (let i = 0; i < length; i += CHUNK) {
    const end = Math.min(length, i + CHUNK);
    parts.push(String.fromCharCode.apply(null, Array.prototype.slice.call(codes, i, end) as number[]));
  }
  return parts.join('');
}

/** A writable copy of a byte string's codes, for the in-place algorithms ported from C. */
export function toCodes(input: string): Uint8Array {
  const out = new Uint8Array(input.length);
  for (let i = 0; i < input.length; i++) out[i] = input.charCodeAt(i);
  return out;
}

/** Applies a 256-entry byte table; returns the input itself when no byte changes. */
export function mapBytes(input: string, table: Uint8Array): string {
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input.charCodeAt(i);
    if (table[c] !== c) break;
    i++;
  }
  if (i === n) return input;
  const out = new Uint8Array(n);
  for (let k = 0; k < n; k++) out[k] = table[input.charCodeAt(k)];
  return fromCodes(out);
}

export function byteTable(f: (c: number) => number): Uint8Array {
  const t = new Uint8Array(256);
  for (let c = 0; c < 256; c++) t[c] = f(c) & 0xff;
  return t;
}
