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

/** SHA-1 of the first and last 4 KiB of the first `size` bytes (and of `size` itself). */
export function prefixFingerprint(file: string, size: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const h = crypto.createHash('sha1');
    h.update(String(size));
    const buf = Buffer.alloc(4096);
    const a = fs.readSync(fd, buf, 0, Math.min(4096, size), 0);
    h.update(buf.subarray(0, a));
    const start = Math.max(0, size - 4096);
    const b = fs.readSync(fd, buf, 0, size - start, start);
    h.update(buf.subarray(0, b));
    return h.digest('hex');
  } finally {
    fs.closeSync(fd);
  }
}
