// Building byte strings (see ../CONTRACT.md) from char codes without one concatenation per byte.

/** Up to this many bytes a string is built char by char; longer ones go through the native
 *  latin1 decoder, whose fixed cost (~80 ns) is about that of eight concatenations. */
const CONCAT_UP_TO = 8;

/** The first `length` bytes of `codes` as a string. Always a copy. */
export function fromCodes(codes: Uint8Array, length = codes.length): string {
  if (length <= CONCAT_UP_TO) {
    let out = '';
    for (let i = 0; i < length; i++) out += String.fromCharCode(codes[i]);
    return out;
  }
  if (codes instanceof Buffer) return codes.toString('latin1', 0, length);
  return Buffer.from(codes.buffer, codes.byteOffset, length).toString('latin1');
}

let scratchBuffer: Uint8Array = Buffer.allocUnsafe(4096);

/**
 * A shared output buffer of at least `size` bytes, for decoders that build their result byte by
 * byte. Transformations run synchronously and never nest while one is held, and `fromCodes` copies,
 * so one buffer serves them all without an allocation per call. Contents are not zeroed.
 */
export function scratch(size: number): Uint8Array {
  if (scratchBuffer.length < size) scratchBuffer = Buffer.allocUnsafe(Math.max(size, scratchBuffer.length * 2));
  return scratchBuffer;
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
