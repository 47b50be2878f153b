// A strict, incremental decoder of a chunked request body (RFC 9112 7.1), for the one place where
// node's parser does not frame the body: an upgrade request (llhttp stops at its head and hands
// over the raw socket). The decoded bytes are what the WAF inspects and what the origin gets,
// re-framed with a Content-Length: client framing never reaches the origin, so a lenient origin
// parser cannot read a different body than the one inspected. Anything unusual (bare LF or CR,
// a size that is not hex, an over-long size line or trailer) is 'bad': the edge answers 400 and
// closes. Chunk extensions are read past and dropped; trailer fields are dropped too (the normal
// path does not forward them either).

export type ChunkedStep =
  | { readonly kind: 'more' }
  /** The body ended; `rest` is what followed it in the last chunk pushed (not part of the body). */
  | { readonly kind: 'done'; readonly rest: Buffer }
  | { readonly kind: 'bad'; readonly reason: string }
  | { readonly kind: 'over' };

/** Longest chunk-size line (size and extensions) and trailer section accepted. */
const MAX_LINE_BYTES = 4096;
const MAX_TRAILER_BYTES = 8192;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,8})(?:[ \t]*;[^\r\n]*)?$/;

type State = 'size' | 'data' | 'data-end' | 'trailer' | 'done';

export class ChunkedDecoder {
  readonly chunks: Buffer[] = [];
  /** Decoded body bytes so far. */
  size = 0;
  private state: State = 'size';
  private line = '';
  private remaining = 0;
  private trailerBytes = 0;

  constructor(private readonly maxBytes: number) {}

  push(data: Buffer): ChunkedStep {
    let i = 0;
    while (i < data.length) {
      if (this.state === 'data') {
        const n = Math.min(this.remaining, data.length - i);
        this.chunks.push(data.subarray(i, i + n));
        this.size += n;
        this.remaining -= n;
        i += n;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      // Every other state reads a CRLF-terminated line.
      const lf = data.indexOf(10, i);
      const end = lf === -1 ? data.length : lf;
      this.line += data.toString('latin1', i, end);
      i = lf === -1 ? data.length : lf + 1;
      const limit = this.state === 'trailer' ? MAX_TRAILER_BYTES - this.trailerBytes : MAX_LINE_BYTES;
      if (this.line.length > limit) return { kind: 'bad', reason: 'chunk line or trailer too long' };
      if (lf === -1) break;
      if (!this.line.endsWith('\r') || this.line.indexOf('\r') !== this.line.length - 1) return { kind: 'bad', reason: 'bare LF or CR in chunked framing' };
      const line = this.line.slice(0, -1);
      this.line = '';
      const step = this.onLine(line);
      if (step) return step;
      if (this.state === 'done') return { kind: 'done', rest: data.subarray(i) };
    }
    return { kind: 'more' };
  }

  private onLine(line: string): ChunkedStep | null {
    if (this.state === 'data-end') {
      if (line !== '') return { kind: 'bad', reason: 'chunk data longer than its size' };
      this.state = 'size';
      return null;
    }
    if (this.state === 'trailer') {
      this.trailerBytes += line.length + 2;
      if (line === '') this.state = 'done';
      else if (!line.includes(':')) return { kind: 'bad', reason: 'malformed trailer field' };
      return null;
    }
    const m = CHUNK_SIZE.exec(line);
    if (!m) return { kind: 'bad', reason: 'malformed chunk size' };
    const n = parseInt(m[1], 16);
    if (n === 0) { this.state = 'trailer'; return null; }
    if (this.size + n > this.maxBytes) return { kind: 'over' };
    this.remaining = n;
    this.state = 'data';
    return null;
  }
}
