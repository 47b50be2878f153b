// Building byte strings (see ../CONTRACT.md) from char codes without one concatenation per byte.

/** The first `length` bytes of `codes` as a string (Buffer's latin1 decoder: native, no per-byte work). */
export function fromCodes(codes: Uint8Array, length = codes.length): string {
  return Buffer.from(codes.buffer, codes.byteOffset, length).toString('latin1');
}

/** A writable copy of a byte string's codes, for the in-place algorithms ported from C. */
export function toCodes(input: string): Uint8Array {
  return Buffer.from(input, 'latin1');
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
