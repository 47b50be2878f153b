// Reading segments back: torn-tail repair at open, line-by-line parsing that skips (and
// counts) lines that are not valid JSON, and a cheap fingerprint that tells whether the part
// of a segment an index snapshot covers is still the same bytes.
import fs from 'node:fs';
import crypto from 'node:crypto';

const NL = 10;
const CHUNK = 4 << 20;

/**
 * Cuts an unterminated last line (a write interrupted by a crash: it was never
 * acknowledged). Returns the number of bytes cut.
 */
export function cutTornTail(file: string): number {
  const fd = fs.openSync(file, 'r+');
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return 0;
    const buf = Buffer.alloc(64 * 1024);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - buf.length);
      const n = fs.readSync(fd, buf, 0, end - start, start);
      const nl = buf.subarray(0, n).lastIndexOf(NL);
      if (nl >= 0) {
        const keep = start + nl + 1;
        if (keep === size) return 0;
        fs.ftruncateSync(fd, keep);
        fs.fsyncSync(fd);
        return size - keep;
      }
      end = start;
    }
    fs.ftruncateSync(fd, 0);
    fs.fsyncSync(fd);
    return size;
  } finally {
    fs.closeSync(fd);
  }
}

export interface InvalidLine {
  /** Byte offset of the line in the segment. */
  offset: number;
  reason: string;
}

/**
 * Calls `onEntry` for each line from `from` on that parses as JSON and passes `accept`
 * (which returns null or the reason it refuses); everything else goes to `onInvalid`.
 * Returns the bytes read (the file size reached).
 */
export function readSegmentLines(
  file: string,
  from: number,
  accept: (value: unknown) => string | null,
  onInvalid: (bad: InvalidLine) => void,
): number {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let pos = from;
    let carry: Buffer | null = null;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) break;
      const data: Buffer = carry ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      const dataStart = pos - (carry ? carry.length : 0);
      pos += n;
      let lineStart = 0;
      for (;;) {
        const nl = data.indexOf(NL, lineStart);
        if (nl < 0) break;
        if (nl > lineStart) {
          const text = data.toString('utf8', lineStart, nl);
          let value: unknown;
          let reason: string | null;
          try {
            value = JSON.parse(text);
            reason = accept(value);
          } catch (err) {
            reason = `invalid JSON: ${(err as Error).message}`;
          }
          if (reason !== null) onInvalid({ offset: dataStart + lineStart, reason });
        }
        lineStart = nl + 1;
      }
      carry = lineStart < data.length ? Buffer.from(data.subarray(lineStart)) : null;
    }
    // Open repairs torn tails first, so a carry here is a line still being written by
    // nobody: report it like any other bad line.
    if (carry && carry.length) onInvalid({ offset: pos - carry.length, reason: 'unterminated last line' });
    return pos;
  } finally {
    fs.closeSync(fd);
  }
}

/** A segment's size after a torn-tail cut, and its first and last 4 KiB (for fingerprints). */
export interface SegmentEnds {
  size: number;
  /** Bytes cut from a torn tail (0 almost always). */
  cut: number;
  head: Buffer;
  tail: Buffer;
}

const FP_BYTES = 4096;

/**
 * What open needs of a segment, in one open and (usually) two reads: the torn-tail check
 * of cutTornTail and the bytes of its fingerprint, so that a segment the snapshot covers
 * whole is not opened and read a second time (on a cold cache every read is a seek).
 */
export function readSegmentEnds(file: string, afterCut = false): SegmentEnds {
  const fd = fs.openSync(file, 'r');
  let size: number;
  let tail: Buffer;
  let head: Buffer;
  try {
    size = fs.fstatSync(fd).size;
    // The last min(4 KiB, size) bytes: the torn-tail check needs only the last byte.
    const n = Math.min(FP_BYTES, size);
    tail = Buffer.allocUnsafe(n);
    const got = fs.readSync(fd, tail, 0, n, size - n);
    if (got !== n || (n > 0 && tail[n - 1] !== NL)) size = -1; // torn (or changing): the slow path below
    if (size <= FP_BYTES) head = tail;
    else {
      head = Buffer.allocUnsafe(FP_BYTES);
      if (fs.readSync(fd, head, 0, FP_BYTES, 0) !== FP_BYTES) size = -1;
    }
  } finally {
    fs.closeSync(fd);
  }
  if (size >= 0) return { size, cut: 0, head, tail };
  if (afterCut) throw new Error(`${file}: changed while it was being opened`);
  const cut = cutTornTail(file);
  return { ...readSegmentEnds(file, true), cut };
}

/** prefixFingerprint(file, size), from the bytes readSegmentEnds kept when `size` is the whole segment. */
export function endsFingerprint(file: string, ends: SegmentEnds, size: number): string {
  // head and tail are then exactly the first and last min(4 KiB, size) bytes.
  return size === ends.size ? fingerprintOf(size, ends.head, ends.tail) : prefixFingerprint(file, size);
}

function fingerprintOf(size: number, head: Uint8Array, tail: Uint8Array): string {
  const h = crypto.createHash('sha1');
  h.update(String(size));
  h.update(head);
  h.update(tail);
  return h.digest('hex');
}

/** SHA-1 of the first and last 4 KiB of the first `size` bytes (and of `size` itself). */
export function prefixFingerprint(file: string, size: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(FP_BYTES);
    const a = fs.readSync(fd, head, 0, Math.min(FP_BYTES, size), 0);
    const tail = Buffer.alloc(FP_BYTES);
    const start = Math.max(0, size - FP_BYTES);
    const b = fs.readSync(fd, tail, 0, size - start, start);
    return fingerprintOf(size, head.subarray(0, a), tail.subarray(0, b));
  } finally {
    fs.closeSync(fd);
  }
}
