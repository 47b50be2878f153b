// Finds the lines of one segment file that contain a byte pattern, without reading the file
// into memory at once: a detail lookup (`logs show`, a request id search) reads one day's
// segment in 1 MiB pieces and parses only the lines that hold the pattern. Only the committed
// bytes are read (`limit`): a group being written is not visible to readers.
import fs from 'node:fs/promises';

const PIECE = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Calls `onLine` with every complete line (without its newline) in the first `limit` bytes of
 * `file` that contains `needle`, in file order. A file that is gone (retention) has no lines.
 */
export async function scanSegmentLines(file: string, limit: number, needle: Buffer, onLine: (line: string) => void): Promise<void> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    let carry = Buffer.alloc(0);
    for (let pos = 0; pos < limit; ) {
      const piece = Buffer.allocUnsafe(Math.min(PIECE, limit - pos));
      const { bytesRead } = await handle.read(piece, 0, piece.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const data = carry.length === 0 ? piece.subarray(0, bytesRead) : Buffer.concat([carry, piece.subarray(0, bytesRead)]);
      // Only whole lines are searched, so a pattern split across two pieces is still found.
      const end = data.lastIndexOf(NEWLINE) + 1;
      linesWith(data.subarray(0, end), needle, onLine);
      carry = Buffer.from(data.subarray(end));
    }
  } finally {
    await handle.close();
  }
}

function linesWith(data: Buffer, needle: Buffer, onLine: (line: string) => void): void {
  let from = 0;
  for (;;) {
    const hit = data.indexOf(needle, from);
    if (hit < 0) return;
    const start = data.lastIndexOf(NEWLINE, hit) + 1;
    let end = data.indexOf(NEWLINE, hit);
    if (end < 0) end = data.length;
    onLine(data.toString('utf8', start, end));
    from = end + 1;
  }
}
