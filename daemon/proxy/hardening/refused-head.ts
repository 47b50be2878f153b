// A small, strict parser for the head of a request node's parser (llhttp) refused, so that the
// rule engine can still judge it (refused-inspection.ts). Why our own and not llhttp: llhttp
// refuses these heads by design (unknown methods, raw non-ASCII bytes in the target, a request
// line without a version, a target starting with '?', HTTP/3.0, Content-Length with
// Transfer-Encoding) and offers no lenient mode we want on the front line; `insecureHTTPParser`
// would loosen framing for every request. This parser frames nothing and forwards nothing: it
// only reads one head so that its fields can be logged by the rules, as Apache hands such
// requests to ModSecurity.
//
// Accepted (what Apache accepts): `method SP target [SP HTTP/d.d] CRLF`, method a token (any
// case, any length up to MAX_METHOD), target any bytes but controls and SP (raw UTF-8 included),
// then `name: value CRLF` fields, names tokens, values without controls but HTAB, then CRLF.
// Anything else (bare LF, obs-fold, NUL, a space in the target, a line over the limits) is
// unreadable: the engine does not see it, and the edge's refusal alone is logged.
// Bytes are read as latin1, one char per byte (what the engine reads, engine/CONTRACT.md).

export interface RefusedHead {
  readonly method: string;
  readonly target: string;
  /** 'HTTP/d.d' as sent; 'HTTP/0.9' for a line without a version (Apache's reading of it). */
  readonly protocol: string;
  /** The version was missing from the request line. */
  readonly versionless: boolean;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The request line as received. */
  readonly line: string;
  /** Bytes of the head, its closing blank line included. */
  readonly length: number;
}

export type HeadReading =
  | { readonly kind: 'head'; readonly head: RefusedHead }
  /** The bytes so far are a valid start; the head has not ended yet. */
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'unreadable'; readonly reason: string };

export interface HeadLimits {
  readonly maxUriBytes: number;
  readonly maxHeaderBytes: number;
  readonly maxHeaders: number;
}

/** Longest method read: CRS's own tests use 22 characters; Apache's limit is the line's. */
const MAX_METHOD = 64;
const CR = 13;
const LF = 10;

// RFC 9110 tchar: ! # $ % & ' * + - . ^ _ ` | ~ DIGIT ALPHA.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Target: any byte but controls, SP and DEL (raw non-ASCII bytes are what Apache lets through).
const TARGET = /^[\x21-\x7e\x80-\xff]+$/;
const VERSION = /^HTTP\/\d\.\d$/;
// A field value: visible bytes, SP, HTAB and obs-text; no other control (NUL, CR, LF...).
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** What a version cut short may look like. */
const VERSION_PREFIX = /^(H(T(T(P(\/(\d(\.\d?)?)?)?)?)?)?)?$/;

/** The most bytes a head may take: node's own head limit for the edge (edge-limits.ts). */
export function maxHeadBytes(limits: HeadLimits): number {
  return limits.maxUriBytes + limits.maxHeaderBytes + 64;
}

/** Reads the head at the start of `bytes` (more bytes after it are ignored). */
export function readRefusedHead(bytes: Buffer, limits: HeadLimits): HeadReading {
  const lineEnd = lineEndAt(bytes, 0, Math.min(bytes.length, limits.maxUriBytes + MAX_METHOD + 16));
  if (lineEnd === 'bare-lf') return { kind: 'unreadable', reason: 'bare LF in the request line' };
  if (lineEnd === -1) {
    // Still valid so far? A line that is already over its limit, or holds a byte no request line
    // may hold, will never become readable.
    if (bytes.length >= limits.maxUriBytes + MAX_METHOD + 16) return { kind: 'unreadable', reason: 'request line over the limit' };
    return partialLineValid(bytes.toString('latin1')) ? { kind: 'incomplete' } : { kind: 'unreadable', reason: 'not a request line' };
  }
  const line = bytes.toString('latin1', 0, lineEnd);
  const requestLine = readRequestLine(line, limits);
  if (typeof requestLine === 'string') return { kind: 'unreadable', reason: requestLine };

  const headers: Array<readonly [string, string]> = [];
  const budget = Math.min(bytes.length, maxHeadBytes(limits));
  let fieldBytes = 0;
  let at = lineEnd + 2;
  for (;;) {
    const end = lineEndAt(bytes, at, budget);
    if (end === 'bare-lf') return { kind: 'unreadable', reason: 'bare LF in a header field' };
    if (end === -1) {
      return budget < bytes.length || bytes.length >= maxHeadBytes(limits)
        ? { kind: 'unreadable', reason: `head over ${maxHeadBytes(limits)} bytes` }
        : { kind: 'incomplete' };
    }
    if (end === at) break; // the blank line
    const text = bytes.toString('latin1', at, end);
    fieldBytes += text.length + 2;
    if (fieldBytes > limits.maxHeaderBytes) return { kind: 'unreadable', reason: `header fields over ${limits.maxHeaderBytes} bytes` };
    if (headers.length >= limits.maxHeaders) return { kind: 'unreadable', reason: `more than ${limits.maxHeaders} header fields` };
    const field = readField(text);
    if (typeof field === 'string') return { kind: 'unreadable', reason: field };
    headers.push(field);
    at = end + 2;
  }
  return { kind: 'head', head: { ...requestLine, headers, line, length: at + 2 } };
}

function readRequestLine(line: string, limits: HeadLimits): Omit<RefusedHead, 'headers' | 'line' | 'length'> | string {
  const parts = line.split(' ');
  // `GET / ` (a trailing space, no version) is how CRS's tests write a versionless line.
  if (parts.length === 3 && parts[2] === '') parts.pop();
  if (parts.length !== 2 && parts.length !== 3) return 'request line is not "method target [version]"';
  const [method, target, version] = parts;
  if (method.length > MAX_METHOD || !TOKEN.test(method)) return 'method is not a token';
  if (!TARGET.test(target)) return 'target holds a control byte or is empty';
  if (target.length > limits.maxUriBytes) return `target over ${limits.maxUriBytes} bytes`;
  if (version !== undefined && !VERSION.test(version)) return 'version is not HTTP/d.d';
  return { method, target, protocol: version ?? 'HTTP/0.9', versionless: version === undefined };
}

function readField(text: string): readonly [string, string] | string {
  const colon = text.indexOf(':');
  if (colon <= 0) return 'header field without a name';
  const name = text.slice(0, colon);
  if (!TOKEN.test(name)) return 'header name is not a token (or obs-fold)';
  const value = text.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  if (!VALUE.test(value)) return 'control byte in a header value';
  return [name, value];
}

/** Index of the CR of the next CRLF in [from, to), -1 if none, 'bare-lf' for an LF alone. */
function lineEndAt(bytes: Buffer, from: number, to: number): number | 'bare-lf' {
  const lf = bytes.indexOf(LF, from);
  if (lf === -1 || lf >= to) return -1;
  if (lf === from || bytes[lf - 1] !== CR) return 'bare-lf';
  return lf - 1;
}

/** Whether a request line cut short could still become a readable one. */
function partialLineValid(text: string): boolean {
  const cut = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (cut.length === 0) return true;
  const parts = cut.split(' ');
  if (parts.length > 3) return false;
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]*$/.test(parts[0]) || parts[0].length > MAX_METHOD) return false;
  if (parts.length >= 2 && !/^[\x21-\x7e\x80-\xff]*$/.test(parts[1])) return false;
  return parts.length < 3 || VERSION_PREFIX.test(parts[2]);
}
