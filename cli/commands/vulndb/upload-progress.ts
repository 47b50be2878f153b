// Bytes sent so far while a feed streams to the daemon, on a terminal's stderr only (redrawn at
// most four times a second), then a note that the daemon is finishing the index.
import type { Io } from '../../io.js';
import { formatBytes } from './status-fields.js';

export function withUploadProgress(chunks: AsyncIterable<Buffer | string>, io: Io, enabled: boolean): { chunks: AsyncIterable<Buffer | string>; end(): void } {
  let drawn = false;
  const end = () => {
    if (drawn) io.stderr.write('\r\x1b[2K');
    drawn = false;
  };
  if (!enabled) return { chunks, end };
  async function* counted(): AsyncIterable<Buffer | string> {
    const startedAt = Date.now();
    let sent = 0;
    let lastDraw = 0;
    for await (const chunk of chunks) {
      sent += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      const now = Date.now();
      if (now - lastDraw >= 250) {
        lastDraw = now;
        const rate = sent / Math.max(0.001, (now - startedAt) / 1000);
        io.stderr.write(`\r\x1b[2K${formatBytes(sent)} sent (${formatBytes(rate)}/s)`);
        drawn = true;
      }
      yield chunk;
    }
    io.stderr.write(`\r\x1b[2K${formatBytes(sent)} sent; the daemon is building the index`);
    drawn = true;
  }
  return { chunks: counted(), end };
}
