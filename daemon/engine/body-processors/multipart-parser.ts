// The multipart/form-data state machine, following ModSecurity v2's msc_multipart.c: input is cut
// into "buffers" the way its 4 KiB line buffer cuts it (a line, or 4096 bytes, or 4095 bytes when
// the next one is '\r'), each buffer is a boundary, a part header line or part data, and every
// irregularity ModSecurity flags is flagged here under the same name.
import { parseDisposition } from './multipart-disposition.js';

const BUF_SIZE = 4096;

export interface ParsedPart {
  name: string;
  filename?: string;
  value: string;              // form fields: the value; files: unused
  size: number;               // bytes of data
  headers: Map<string, [string, string]>; // lower-case name -> [name as sent, value]
  headerLines: string[];
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

  private part: (Omit<ParsedPart, 'name'> & { name?: string; chunks: string[]; isFile: boolean; inData: boolean; counted?: boolean; lastHeader?: string }) | null = null;
  private reserve = '';
  private complete = false;
  private boundaryCount = 0;
  private files = 0;

  constructor(private readonly boundary: string, private readonly maxFiles?: number) {}

  /** Parses the whole body; false when parsing stopped on an error (see `error`). */
  parse(body: string): boolean {
    const n = body.length;
    if (n === 0) return true;
    let pos = 0;
    let containsLine = true;
    while (pos < n) {
      const nl = body.indexOf('\n', pos);
      let end = nl < 0 ? n : nl + 1;
      let split = false;
      if (end - pos >= BUF_SIZE) {
        if (end - pos > BUF_SIZE || body[pos + BUF_SIZE - 1] !== '\n') {
          split = true;
          end = body[pos + BUF_SIZE - 1] === '\r' ? pos + BUF_SIZE - 1 : pos + BUF_SIZE;
        }
      }
      if (nl < 0 && !split) {
        return this.finish(body.slice(pos), containsLine);
      }
      const chunk = body.slice(pos, end);
      if (!this.buffer(chunk, containsLine, split)) return false;
      containsLine = chunk.endsWith('\n');
      pos = end;
      if (this.complete && pos < n) {
        this.flags.dataAfter = 1;
        return true;
      }
    }
    return this.finish('', containsLine);
  }

  private fail(message: string): false {
    this.flags.error = 1;
    this.error = message;
    return false;
  }

  /** ModSecurity's multipart_complete(): the unterminated tail may still be the final boundary. */
  private finish(tail: string, containsLine: boolean): boolean {
    if (this.complete) return true;
    if (this.boundaryCount === 0) return this.fail('Multipart: No boundaries found in payload.');
    if (containsLine && tail === `--${this.boundary}--`) {
      this.closePart(true);
      this.complete = true;
      return true;
    }
    return this.fail('Multipart: Final boundary missing.');
  }

  private buffer(chunk: string, containsLine: boolean, split: boolean): boolean {
    const b = this.boundary;
    const cstr = cString(chunk);
    let isBoundary = false;
    if (containsLine && cstr.length > 3 && cstr.startsWith('--')) {
      if (cstr.length >= b.length + 2 && cstr.startsWith(b, 2)) {
        let at = 2 + b.length;
        const isFinal = cstr[at] === '-' && cstr[at + 1] === '-';
        if (isFinal) {
          at += 2;
          if (this.complete) return this.fail('Multipart: Invalid boundary (final duplicate).');
        }
        const rest = cstr.slice(at);
        if (rest !== '\r\n' && rest !== '\n') return this.fail(`Multipart: Invalid boundary: ${cstr}`);
        if (rest === '\n') this.flags.lfLine = 1;
        else this.flags.crlfLine = 1;
        this.closePart(isFinal);
        if (isFinal) this.complete = true;
        this.boundaryCount++;
        isBoundary = true;
      } else {
        if (this.flags.boundaryQuoted && cstr.length >= b.length + 3 && cstr[2] === '"' && cstr.startsWith(b, 3)) {
          return this.fail('Multipart: Invalid boundary (quotes).');
        }
        let p = 2;
        while (isSpace(cstr.charCodeAt(p))) p++;
        if (p !== 2 && cstr.startsWith(b, p)) return this.fail('Multipart: Invalid boundary (whitespace).');
        this.flags.unmatchedBoundary = 1;
      }
    } else if (containsLine && chunk.includes('--' + b)) {
      this.flags.unmatchedBoundary = 1;
    }
    if (isBoundary) return true;
    const part = this.part;
    if (part === null) {
      this.flags.dataBefore = 1;
      return true;
    }
    if (!part.inData) {
      if (split || chunk.length === BUF_SIZE) return this.fail(`Multipart: Part header line over ${BUF_SIZE} bytes long`);
      return this.header(chunk);
    }
    this.data(chunk);
    return true;
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

  /** Part data: a buffer's trailing CRLF/LF is held back until it is known not to precede a boundary. */
  private data(chunk: string): void {
    const part = this.part!;
    let held = '';
    let body = chunk;
    if (chunk.endsWith('\r\n')) { held = '\r\n'; body = chunk.slice(0, -2); }
    else if (chunk.endsWith('\n')) { held = '\n'; body = chunk.slice(0, -1); }
    const piece = this.reserve + body;
    if (part.isFile) {
      if (!part.counted && this.maxFiles !== undefined && ++this.files > this.maxFiles) this.flags.fileLimitExceeded = 1;
      part.counted = true;
    } else {
      part.chunks.push(piece);
    }
    part.size += piece.length;
    this.reserve = held;
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
      this.part = { value: '', size: 0, headers: new Map(), headerLines: [], chunks: [], isFile: false, inData: false };
      this.reserve = '';
    }
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** The text up to the first NUL, as C string functions see it. */
function cString(s: string): string {
  const nul = s.indexOf('\0');
  return nul < 0 ? s : s.slice(0, nul);
}

/** ModSecurity's remove_lf_crlf_inplace(): one trailing "\n" or "\r\n". */
function stripLineEnd(s: string): string {
  if (s.endsWith('\r\n')) return s.slice(0, -2);
  if (s.endsWith('\n')) return s.slice(0, -1);
  return s;
}
