// The multipart/form-data state machine, following ModSecurity v2's msc_multipart.c: input is cut
// into "buffers" the way its 4 KiB line buffer cuts it (a line, or 4096 bytes, or 4095 bytes when
// the next one is '\r'), each buffer is a boundary, a part header line or part data, and every
// irregularity ModSecurity flags is flagged here under the same name.
//
// Cost is linear in the body and nothing is allocated per buffer of file data (security review M2: 200,000
// tiny parts held a worker 1.7 s, most of it garbage collection; a 12 MiB part without a newline
// took seconds, as each 4 KiB buffer searched the rest of the body for the next newline): the parser
// reads the body's bytes where they are (no 12 MiB string made of them: only part headers and field
// values become strings, one char per byte as the engine reads bytes), the next newline and NUL are
// found once and kept, buffers are offsets into the body, and a run of data lines that cannot hold
// a boundary is taken in one step (skipData, within a 64 KiB window). Limits stop the
// parse where they are reached: the number of parts (`maxParts`) and the bytes of part headers and
// field values (`maxNoFilesBytes`, SecRequestBodyNoFilesLimit as ModSecurity counts it); every
// buffer ticks the time budget's clock (parse-clock.ts).
import { parseDisposition } from './multipart-disposition.js';
import type { ParseClock } from './parse-clock.js';

const BUF_SIZE = 4096;
/** How far one step of skipData looks ahead: 64 KiB, ~0.1-1 ms of string search at worst. */
const SKIP_WINDOW = 16 * BUF_SIZE;

export interface ParsedPart {
  name: string;
  filename?: string;
  value: string;              // form fields: the value; files: unused
  size: number;               // bytes of data
  headers: Map<string, [string, string]>; // lower-case name -> [name as sent, value]
  headerLines: string[];
}

export interface MultipartLimits {
  /** SecUploadFileLimit (MULTIPART_FILE_LIMIT_EXCEEDED), when set. */
  maxFiles?: number;
  /** Parts the body may hold: the parse stops at the first part past it (`overParts`). */
  maxParts: number;
  /** Bytes of part headers and field values: the parse stops once past it (`overNoFiles`). */
  maxNoFilesBytes: number;
}

export class MultipartParser {
  readonly parts: ParsedPart[] = [];
  readonly flags = {
    error: 0, boundaryQuoted: 0, boundaryWhitespace: 0, dataBefore: 0, dataAfter: 0, headerFolding: 0,
    lfLine: 0, crlfLine: 0, missingSemicolon: 0, invalidQuoting: 0, invalidPart: 0, invalidHeaderFolding: 0,
    fileLimitExceeded: 0, unmatchedBoundary: 0,
  };
  readonly names: string[] = [];
  readonly fileNames: string[] = [];
  error?: string;
  /** Parts past `maxParts`: the parse stopped at `stoppedAt`, the boundary that opened one more. */
  overParts = false;
  /** Part headers and field values past `maxNoFilesBytes`: the parse stopped at `stoppedAt`. */
  overNoFiles = false;
  stoppedAt?: number;
  /** Part headers and field values read, as ModSecurity counts msc_reqbody_no_files_length. */
  noFilesBytes = 0;

  private part: (Omit<ParsedPart, 'name'> & { name?: string; chunks: string[]; isFile: boolean; inData: boolean; counted?: boolean; lastHeader?: string }) | null = null;
  private reserve = '';
  private complete = false;
  private boundaryCount = 0;
  private files = 0;
  private opened = 0;
  private body: Buffer = EMPTY;
  private readonly boundaryBytes: Buffer;
  private readonly marker: Buffer;
  /** The next '\n' and NUL at or after the current buffer (-1: none left): each found once (a
   *  memchr), so the parse stays linear however the body is cut. */
  private nextNl = 0;
  private nextNul = 0;

  constructor(private readonly boundary: string, private readonly limits: MultipartLimits, private readonly clock: ParseClock) {
    this.boundaryBytes = Buffer.from(boundary, 'latin1');
    this.marker = Buffer.from(`--${boundary}`, 'latin1');
  }

  /** Parses the whole body; false when parsing stopped on an error (see `error`) or at a limit. */
  parse(body: Buffer): boolean {
    const n = body.length;
    if (n === 0) return true;
    this.body = body;
    this.nextNl = body.indexOf(0x0a);
    this.nextNul = body.indexOf(0);
    let pos = 0;
    let containsLine = true;
    while (pos < n) {
      this.clock.tick();
      if (containsLine && this.inRun()) {
        const to = this.skipData(pos);
        if (to > pos) {
          if (this.overNoFiles) return this.stop(pos);
          pos = to;
          continue;
        }
      }
      const nl = this.after(pos);
      let end = nl < 0 ? n : nl + 1;
      let split = false;
      if (end - pos >= BUF_SIZE) {
        if (end - pos > BUF_SIZE || body[pos + BUF_SIZE - 1] !== 0x0a) {
          split = true;
          end = body[pos + BUF_SIZE - 1] === 0x0d ? pos + BUF_SIZE - 1 : pos + BUF_SIZE;
        }
      }
      if (nl < 0 && !split) {
        return this.finish(pos, containsLine);
      }
      if (!this.buffer(pos, end, containsLine, split)) return this.overParts || this.overNoFiles ? this.stop(pos) : false;
      if (this.limits.maxNoFilesBytes < this.noFilesBytes) {
        this.overNoFiles = true;
        return this.stop(pos);
      }
      containsLine = body[end - 1] === 0x0a;
      pos = end;
      if (this.complete && pos < n) {
        this.flags.dataAfter = 1;
        return true;
      }
    }
    return this.finish(n, containsLine);
  }

  private stop(at: number): false {
    this.flags.error = 1;
    this.stoppedAt = at;
    return false;
  }

  /** The next '\n' at or after `pos`, or -1. */
  private after(pos: number): number {
    if (this.nextNl !== -1 && this.nextNl < pos) this.nextNl = this.body.indexOf(0x0a, pos);
    return this.nextNl;
  }

  /** Whether the parse is in a run of lines that are data (part data, or the preamble). */
  private inRun(): boolean {
    return this.part === null ? !this.complete : this.part.inData;
  }

  /**
   * From `pos` (a line start), the lines that cannot be a boundary line (start with '--') or hold `--boundary` are
   * plain data whatever ModSecurity's buffers make of them: taken in one step, up to the start of
   * the first line that starts with '-' or holds the marker (or the last line start), with the
   * bytes held back and counted exactly as buffer by buffer (data()). Returns where it stopped.
   */
  private skipData(pos: number): number {
    const body = this.body;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return pos;
    // Searched within a window, so that one step is short enough for the time budget's checks.
    const windowEnd = Math.min(body.length, pos + SKIP_WINDOW);
    const window = body.subarray(pos, windowEnd);
    this.clock.tick(Math.ceil(window.length / BUF_SIZE));
    // The first '--' that starts a line or `--boundary`: '-' is rare in most data, so this
    // search runs at memchr speed there (a search for '\n--' stops at every newline).
    let at = window.indexOf(DASHES);
    while (at >= 0 && window[at - 1] !== 0x0a && !startsWithAt(window, this.boundaryBytes, at + 2, window.length)) at = window.indexOf(DASHES, at + 1);
    const limit = at >= 0 ? pos + at : windowEnd;
    // The run ends at the last line start before `limit` (a '\n' ends every buffer, so it is one).
    const q = limit > 0 ? body.lastIndexOf(0x0a, limit - 1) + 1 : 0;
    if (q <= pos) return pos;
    const held = q - 2 >= pos && body[q - 2] === 0x0d ? 2 : 1;
    const part = this.part;
    if (part === null) {
      this.flags.dataBefore = 1;
      return q;
    }
    const length = this.reserve.length + (q - held - pos);
    if (part.isFile) this.countFile(part);
    else {
      part.chunks.push(this.reserve + body.toString('latin1', pos, q - held));
      this.noFilesBytes += length;
      if (this.limits.maxNoFilesBytes < this.noFilesBytes) this.overNoFiles = true;
    }
    part.size += length;
    this.reserve = held === 2 ? '\r\n' : '\n';
    return q;
  }

  private fail(message: string): false {
    this.flags.error = 1;
    this.error = message;
    return false;
  }

  /** ModSecurity's multipart_complete(): the unterminated tail body[from..] may still be the final boundary. */
  private finish(from: number, containsLine: boolean): boolean {
    if (this.complete) return true;
    if (this.boundaryCount === 0) return this.fail('Multipart: No boundaries found in payload.');
    const body = this.body;
    const n = body.length;
    if (containsLine && n - from === this.marker.length + 2 && startsWithAt(body, this.marker, from, n) && body[n - 2] === 0x2d && body[n - 1] === 0x2d) {
      this.closePart(true);
      this.complete = true;
      return true;
    }
    return this.fail('Multipart: Final boundary missing.');
  }

  /** One of ModSecurity's buffers: body[start, end). Its C string (what strcmp and friends see)
   *  ends at the first NUL. */
  private buffer(start: number, end: number, containsLine: boolean, split: boolean): boolean {
    const body = this.body;
    const b = this.boundaryBytes;
    if (this.nextNul !== -1 && this.nextNul < start) this.nextNul = body.indexOf(0, start);
    const cEnd = this.nextNul !== -1 && this.nextNul < end ? this.nextNul : end;
    const cLen = cEnd - start;
    let isBoundary = false;
    if (containsLine && cLen > 3 && body[start] === 0x2d && body[start + 1] === 0x2d) {
      if (cLen >= b.length + 2 && startsWithAt(body, b, start + 2, cEnd)) {
        let at = start + 2 + b.length;
        const isFinal = at + 1 < cEnd && body[at] === 0x2d && body[at + 1] === 0x2d;
        if (isFinal) {
          at += 2;
          if (this.complete) return this.fail('Multipart: Invalid boundary (final duplicate).');
        }
        const restLength = cEnd - at;
        const lf = restLength === 1 && body[at] === 0x0a;
        const crlf = restLength === 2 && body[at] === 0x0d && body[at + 1] === 0x0a;
        if (!lf && !crlf) return this.fail(`Multipart: Invalid boundary: ${body.toString('latin1', start, cEnd)}`);
        if (lf) this.flags.lfLine = 1;
        else this.flags.crlfLine = 1;
        if (!isFinal && this.opened >= this.limits.maxParts) {
          this.closePart(true);
          this.overParts = true;
          return false;
        }
        this.closePart(isFinal);
        if (isFinal) this.complete = true;
        this.boundaryCount++;
        isBoundary = true;
      } else {
        if (this.flags.boundaryQuoted && cLen >= b.length + 3 && body[start + 2] === 0x22 && startsWithAt(body, b, start + 3, cEnd)) {
          return this.fail('Multipart: Invalid boundary (quotes).');
        }
        let p = start + 2;
        while (p < cEnd && isSpace(body[p])) p++;
        if (p !== start + 2 && startsWithAt(body, b, p, cEnd)) return this.fail('Multipart: Invalid boundary (whitespace).');
        this.flags.unmatchedBoundary = 1;
      }
    } else if (containsLine && this.holdsMarker(start, end)) {
      this.flags.unmatchedBoundary = 1;
    }
    if (isBoundary) return true;
    const part = this.part;
    if (part === null) {
      this.flags.dataBefore = 1;
      return true;
    }
    if (!part.inData) {
      if (split || end - start === BUF_SIZE) return this.fail(`Multipart: Part header line over ${BUF_SIZE} bytes long`);
      this.noFilesBytes += end - start;
      return this.header(body.toString('latin1', start, end));
    }
    this.data(start, end);
    return true;
  }

  /** Whether `--boundary` lies wholly within body[start, end). */
  private holdsMarker(start: number, end: number): boolean {
    return end - start >= this.marker.length && this.body.subarray(start, end).includes(this.marker);
  }

  private header(line: string): boolean {
    const part = this.part!;
    if (line.includes('\0')) return this.fail('Multipart: Nul byte in part headers.');
    if (line.length > 1 && line[line.length - 2] === '\r') this.flags.crlfLine = 1;
    else this.flags.lfLine = 1;
    if (line === '\r\n' || line === '\n') return this.endOfHeaders();
    if (isSpace(line.charCodeAt(0))) {
      this.flags.headerFolding = 1;
      if (part.lastHeader === undefined) return this.fail('Multipart: Invalid part header (folding error).');
      let p = 0;
      while (isSpace(line.charCodeAt(p))) {
        if (line[p] !== '\t' && line[p] !== ' ') this.flags.invalidHeaderFolding = 1;
        p++;
      }
      const entry = part.headers.get(part.lastHeader.toLowerCase())!;
      entry[1] = `${entry[1]} ${stripLineEnd(line.slice(p))}`;
      part.headerLines[part.headerLines.length - 1] += ` ${stripLineEnd(line.slice(p))}`;
      if (entry[1].length > BUF_SIZE) return this.fail('Multipart: Part header too long.');
      return true;
    }
    const colon = line.indexOf(':');
    if (colon < 0) return this.fail(`Multipart: Invalid part header (colon missing): ${line}.`);
    if (colon === 0) return this.fail('Multipart: Invalid part header (header name missing).');
    const name = line.slice(0, colon);
    let p = colon + 1;
    while (line[p] === '\t' || line[p] === ' ') p++;
    const value = stripLineEnd(line.slice(p));
    if (part.headers.has(name.toLowerCase())) return this.fail(`Multipart: Duplicate part header: ${name}.`);
    part.headers.set(name.toLowerCase(), [name, value]);
    part.headerLines.push(stripLineEnd(line));
    part.lastHeader = name;
    return true;
  }

  private endOfHeaders(): boolean {
    const part = this.part!;
    const cd = part.headers.get('content-disposition');
    if (!cd) return this.fail('Multipart: Part missing Content-Disposition header.');
    const d = parseDisposition(cd[1]);
    if (d.invalidQuoting) this.flags.invalidQuoting = 1;
    if (d.lastName !== undefined) this.names.push(d.lastName);
    if (d.lastFilename !== undefined) this.fileNames.push(d.lastFilename);
    if (d.code < 0) return this.fail(`Multipart: Invalid Content-Disposition header (${d.code}): ${cd[1]}.`);
    if (d.name === undefined) return this.fail('Multipart: Content-Disposition header missing name field.');
    part.name = d.name;
    if (d.filename !== undefined) {
      if (!cd[1].includes('filename=')) return this.fail('Multipart: Invalid Content-Disposition header (filename).');
      part.filename = d.filename;
      part.isFile = true;
    }
    part.inData = true;
    part.lastHeader = undefined;
    return true;
  }

  /** Part data, body[start, end): a buffer's trailing CRLF/LF is held back until it is known not to
   *  precede a boundary. File data is only counted, never copied. */
  private data(start: number, end: number): void {
    const part = this.part!;
    const body = this.body;
    let held = '';
    let dataEnd = end;
    if (end - start >= 2 && body[end - 1] === 0x0a && body[end - 2] === 0x0d) { held = '\r\n'; dataEnd = end - 2; }
    else if (end - start >= 1 && body[end - 1] === 0x0a) { held = '\n'; dataEnd = end - 1; }
    const length = this.reserve.length + dataEnd - start;
    if (part.isFile) {
      this.countFile(part);
    } else {
      part.chunks.push(this.reserve + body.toString('latin1', start, dataEnd));
      this.noFilesBytes += length;
    }
    part.size += length;
    this.reserve = held;
  }

  private countFile(part: NonNullable<MultipartParser['part']>): void {
    if (!part.counted && this.limits.maxFiles !== undefined && ++this.files > this.limits.maxFiles) this.flags.fileLimitExceeded = 1;
    part.counted = true;
  }

  private closePart(last: boolean): void {
    const part = this.part;
    if (part !== null) {
      if (part.name !== undefined) {
        this.parts.push({
          name: part.name,
          filename: part.filename,
          value: part.isFile ? '' : part.chunks.join(''),
          size: part.size,
          headers: part.headers,
          headerLines: part.headerLines,
        });
      } else {
        this.flags.invalidPart = 1;
      }
      this.part = null;
    }
    if (!last) {
      this.opened++;
      this.part = { value: '', size: 0, headers: new Map(), headerLines: [], chunks: [], isFile: false, inData: false };
      this.reserve = '';
    }
  }
}

const EMPTY = Buffer.alloc(0);
const DASHES = Buffer.from('--');

/** Whether `pattern` lies at body[at..] and ends by `end`. */
function startsWithAt(body: Buffer, pattern: Buffer, at: number, end: number): boolean {
  if (at < 0 || at + pattern.length > end) return false;
  for (let i = 0; i < pattern.length; i++) if (body[at + i] !== pattern[i]) return false;
  return true;
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** ModSecurity's remove_lf_crlf_inplace(): one trailing "\n" or "\r\n". */
function stripLineEnd(s: string): string {
  if (s.endsWith('\r\n')) return s.slice(0, -2);
  if (s.endsWith('\n')) return s.slice(0, -1);
  return s;
}
