import zlib from 'node:zlib';

// The inspected copy of a response body: the first `limit` bytes of the body as the browser will
// read it, i.e. decoded when the origin compressed it (gzip, deflate, br), while the client still
// gets the origin's bytes untouched (the relay keeps those). Decoding stops at `limit` bytes of
// output: that is also the cap against a zip bomb (a few KB of gzip that inflate to gigabytes
// cost at most `limit` bytes and the CPU to produce them). Compressed input the decoder refuses
// (corrupt, or cut short by the raw limit) gives what was decoded before the fault: the client's
// browser would stop at the same place.

/** How the copy is decoded; null: an encoding the edge cannot read (the body is not inspected). */
export type BodyDecoding = 'identity' | 'gzip' | 'deflate' | 'br';

/** The decoding for a Content-Encoding value (absent or identity: none). A list of encodings
 *  ("gzip, br"), or one node:zlib cannot read (zstd, compress), gives null. */
export function decodingFor(contentEncoding: string | undefined): BodyDecoding | null {
  if (contentEncoding === undefined) return 'identity';
  const value = contentEncoding.trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate') return 'deflate';
  if (value === 'br') return 'br';
  return null;
}

export class ResponseCopy {
  private readonly parts: Buffer[] = [];
  private length = 0;
  private decoder: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | null = null;
  private done: Promise<void> | null = null;
  private failed = false;
  /** The copy holds `limit` bytes: nothing more is decoded. */
  full = false;

  constructor(private readonly decoding: BodyDecoding, private readonly limit: number, private readonly onFull: () => void) {}

  push(chunk: Buffer): void {
    if (this.full) return;
    if (this.decoding === 'identity') { this.take(chunk); return; }
    this.decoder ??= this.makeDecoder(chunk);
    if (!this.failed) this.decoder.write(chunk);
  }

  /** The copy once everything pushed so far is decoded (or decoding stopped). */
  finish(): Promise<Buffer> {
    if (this.decoder === null || this.full || this.failed) return Promise.resolve(this.copy());
    this.decoder.end();
    return this.done!.then(() => this.copy());
  }

  /** Stops decoding (the exchange ended early). */
  close(): void {
    this.decoder?.destroy();
  }

  private copy(): Buffer {
    return this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.length);
  }

  private take(chunk: Buffer): void {
    const room = this.limit - this.length;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length > 0) { this.parts.push(part); this.length += part.length; }
    if (this.length >= this.limit && !this.full) {
      this.full = true;
      this.decoder?.destroy();
      this.onFull();
    }
  }

  private makeDecoder(first: Buffer): zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress {
    // Flushing like this lets a stream cut short (ProcessPartial's raw limit) end without an error.
    const sync = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
    const decoder = this.decoding === 'gzip' ? zlib.createGunzip(sync)
      : this.decoding === 'br' ? zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
        // "deflate" is meant to be zlib-wrapped (RFC 9110 8.4.1.2), but servers send raw deflate too and browsers read both.
        : zlibWrapped(first) ? zlib.createInflate(sync) : zlib.createInflateRaw(sync);
    decoder.on('data', (out: Buffer) => this.take(out));
    // A decoder that failed (or was destroyed) may emit more than one error: none may go unheard.
    decoder.on('error', () => { this.failed = true; });
    this.done = new Promise((resolve) => {
      decoder.once('end', resolve);
      decoder.once('close', resolve);
      // Corrupt input: inspect what was decoded before it (see the top of the file).
      decoder.once('error', () => resolve());
    });
    return decoder;
  }
}

/** A zlib header: CM 8 and a check sum that makes the first two bytes a multiple of 31 (RFC 1950). */
function zlibWrapped(first: Buffer): boolean {
  return first.length >= 2 && (first[0] & 0x0f) === 8 && ((first[0] << 8) | first[1]) % 31 === 0;
}
