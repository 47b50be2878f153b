// Incremental splitter for the feed's top-level object `{ "<id>": <record>, ... }`.
// The feed is one JSON document of 150+ MB, so it is never held whole: bytes are pushed in
// chunks, the top-level structure is tracked by a small state machine, and each member value
// is cut out by bracket depth and handed to JSON.parse on its own. Memory is one record.
// Every structural character of JSON is ASCII, so scanning UTF-8 bytes is exact.

export type FeedErrorCode = 'not_json_object' | 'invalid_json' | 'truncated' | 'record_too_large';

export class FeedSyntaxError extends Error {
  constructor(
    readonly code: FeedErrorCode,
    message: string,
    readonly byteOffset: number,
  ) {
    super(message);
    this.name = 'FeedSyntaxError';
  }
}

/** Called once per top-level member, with the key and the parsed value. */
export type MemberHandler = (key: string, value: unknown) => void;

const enum State {
  BeforeObject,
  ExpectKeyOrEnd,
  ExpectKey,
  InKey,
  ExpectColon,
  ExpectValue,
  InValue,
  AfterValue,
  Done,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The default ceiling for one record's bytes; real records are a few KB. */
export const DEFAULT_MAX_RECORD_BYTES = 16 * 1024 * 1024;

export class FeedSplitter {
  private state = State.BeforeObject;
  private position = 0; // bytes consumed before the current chunk
  private pieces: Buffer[] = []; // the current key or value, across chunks
  private pieceBytes = 0;
  private key = '';
  private depth = 0; // brackets open inside the current value
  private inString = false;
  private escaped = false;
  private scalar = false; // the current value is a number, true, false or null

  constructor(
    private readonly onMember: MemberHandler,
    private readonly maxRecordBytes = DEFAULT_MAX_RECORD_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let i = 0;
    const n = chunk.length;
    let start = -1; // where the current key or value begins in this chunk
    if (this.state === State.InKey || this.state === State.InValue) start = 0;
    while (i < n) {
      const c = chunk[i];
      switch (this.state) {
        case State.InValue: {
          // The hot loop: stay here until the value ends or the chunk does.
          const end = this.scanValue(chunk, i);
          if (end < 0) {
            i = n;
            break;
          }
          if (this.pieces.length === 0) {
            // The whole value lies in this chunk: decode it in place, no copy.
            this.checkSize(end - start, start);
            this.emitText(chunk.toString('utf8', start, end), end);
          } else {
            this.collect(chunk, start, end);
            this.emitMember(end);
          }
          start = -1;
          i = end;
          this.state = State.AfterValue;
          continue;
        }
        case State.InKey: {
          const end = this.scanString(chunk, i);
          if (end < 0) {
            i = n;
            break;
          }
          this.collect(chunk, start, end);
          this.key = this.parsePieces(this.position + end, 'key') as string;
          start = -1;
          i = end;
          this.state = State.ExpectColon;
          continue;
        }
        default:
          if (isWhitespace(c)) {
            i++;
            continue;
          }
          {
            const next = this.structural(c, i);
            // A key or value piece starts at its first byte (keys keep their quotes for JSON.parse).
            if (this.inPiece()) start = i;
            i = next;
          }
          continue;
      }
    }
    if (start >= 0 && this.inPiece()) {
      this.collect(chunk, start, n);
    }
    this.position += n;
  }

  /** Call after the last chunk: anything but a closed top-level object is an error. */
  end(): void {
    if (this.state === State.BeforeObject) {
      throw new FeedSyntaxError('not_json_object', 'the feed is empty: expected a JSON object', this.position);
    }
    if (this.state !== State.Done) {
      throw new FeedSyntaxError(
        'truncated',
        `the feed ends at byte ${this.position} before its top-level object is closed (truncated download?)`,
        this.position,
      );
    }
  }

  /** Handles one non-whitespace byte outside keys and values; returns the next index. */
  private structural(c: number, i: number): number {
    const at = this.position + i;
    switch (this.state) {
      case State.BeforeObject:
        if (at < UTF8_BOM.length && c === UTF8_BOM[at]) return i + 1; // a byte-order mark, possibly split
        if (c !== OPEN_BRACE) {
          throw new FeedSyntaxError('not_json_object', `the feed is not a JSON object (byte ${at} is ${describe(c)})`, at);
        }
        this.state = State.ExpectKeyOrEnd;
        return i + 1;
      case State.ExpectKeyOrEnd:
      case State.ExpectKey:
        if (c === QUOTE) {
          this.beginPiece();
          this.inString = true;
          this.state = State.InKey;
          return i + 1;
        }
        if (c === CLOSE_BRACE && this.state === State.ExpectKeyOrEnd) {
          this.state = State.Done;
          return i + 1;
        }
        throw this.unexpected(c, at, 'a record id in quotes');
      case State.ExpectColon:
        if (c !== COLON) throw this.unexpected(c, at, "':'");
        this.state = State.ExpectValue;
        return i + 1;
      case State.ExpectValue:
        if (c === COMMA || c === CLOSE_BRACE || c === COLON || c === CLOSE_BRACKET) throw this.unexpected(c, at, 'a value');
        this.beginPiece();
        this.state = State.InValue;
        this.scalar = c !== OPEN_BRACE && c !== OPEN_BRACKET && c !== QUOTE;
        this.depth = c === OPEN_BRACE || c === OPEN_BRACKET ? 1 : 0;
        this.inString = c === QUOTE;
        return i + 1;
      case State.AfterValue:
        if (c === COMMA) {
          this.state = State.ExpectKey;
          return i + 1;
        }
        if (c === CLOSE_BRACE) {
          this.state = State.Done;
          return i + 1;
        }
        throw this.unexpected(c, at, "',' or '}'");
      case State.Done:
        throw new FeedSyntaxError('invalid_json', `unexpected data after the top-level object at byte ${at}`, at);
      default:
        throw new FeedSyntaxError('invalid_json', `internal splitter state error at byte ${at}`, at);
    }
  }

  /** Scans a value from `i`; returns the index just past its end, or -1 if it runs past the chunk. */
  private scanValue(chunk: Buffer, i: number): number {
    const n = chunk.length;
    if (this.scalar) {
      while (i < n) {
        const c = chunk[i];
        if (c === COMMA || c === CLOSE_BRACE || isWhitespace(c)) return i;
        i++;
      }
      return -1;
    }
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    while (i < n) {
      const c = chunk[i++];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (depth === 0) break; // a string value ends here
        }
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    if (depth === 0 && !inString) return i;
    return -1;
  }

  /** Scans a key string from `i` (opening quote already consumed); returns the index past its closing quote. */
  private scanString(chunk: Buffer, i: number): number {
    let escaped = this.escaped;
    while (i < chunk.length) {
      const c = chunk[i++];
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) {
        this.escaped = false;
        this.inString = false;
        return i;
      }
    }
    this.escaped = escaped;
    return -1;
  }

  /** Inside a key or a value: bytes belong to the current piece. */
  private inPiece(): boolean {
    return this.state === State.InKey || this.state === State.InValue;
  }

  private beginPiece(): void {
    this.pieces = [];
    this.pieceBytes = 0;
    this.escaped = false;
  }

  private collect(chunk: Buffer, start: number, end: number): void {
    if (end <= start) return;
    this.pieceBytes += end - start;
    this.checkSize(this.pieceBytes, start);
    // Copy: the caller may reuse the chunk's memory after push() returns.
    this.pieces.push(Buffer.from(chunk.subarray(start, end)));
  }

  private checkSize(bytes: number, startInChunk: number): void {
    if (bytes > this.maxRecordBytes) {
      throw new FeedSyntaxError(
        'record_too_large',
        `a record is larger than ${this.maxRecordBytes} bytes (at byte ${this.position + startInChunk})`,
        this.position + startInChunk,
      );
    }
  }

  private emitMember(endInChunk: number): void {
    const text = (this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces)).toString('utf8');
    this.pieces = [];
    this.pieceBytes = 0;
    this.emitText(text, endInChunk);
  }

  private emitText(text: string, endInChunk: number): void {
    this.onMember(this.key, this.parseText(text, this.position + endInChunk, 'record'));
  }

  private parsePieces(at: number, what: 'key' | 'record'): unknown {
    const text = (this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces)).toString('utf8');
    this.pieces = [];
    this.pieceBytes = 0;
    return this.parseText(text, at, what);
  }

  private parseText(text: string, at: number, what: 'key' | 'record'): unknown {
    try {
      return JSON.parse(text);
    } catch (err) {
      const where = what === 'key' ? 'a record id' : `the record ${JSON.stringify(this.key)}`;
      throw new FeedSyntaxError('invalid_json', `invalid JSON in ${where} ending at byte ${at}: ${(err as Error).message}`, at);
    }
  }

  private unexpected(c: number, at: number, expected: string): FeedSyntaxError {
    return new FeedSyntaxError('invalid_json', `expected ${expected} at byte ${at}, found ${describe(c)}`, at);
  }
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function describe(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}
