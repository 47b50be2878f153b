// The path a request names, in the form the edge compares against protected pages and rate
// limits. The rule: whatever any common origin would serve for the request target, the normal
// form must land on the same protected prefix; where origins disagree, err towards protecting
// (a false match costs a crafted URL nobody's browser sends; a miss is a bypass).
//
// Decisions, each for the origins named:
// - percent-escapes decode to BYTES (nginx, Apache, IIS, PHP), never failing: `%ff`, `%c0%af`
//   and invalid UTF-8 tails stay bytes. Only `%` + two hex digits is an escape (either case);
//   anything else is literal, as nginx. One round of decoding, as origins do (`%2577` is the
//   literal text `%77`).
// - `\` (also `%5c`) is a separator (IIS, PHP and Apache on Windows); `%2f` is a separator
//   (nginx decodes before splitting; Apache refuses it or keeps it: both no worse than us).
// - `//` collapses (nginx merge_slashes, filesystems).
// - `.` and `..` segments are resolved after decoding (`%2e%2e` too), and, because an origin or
//   an application routing on the raw REQUEST_URI may not resolve them, the path with its `..`
//   left in place is matched too (see requestPaths): `/wp-admin/../x` is both `/x` and
//   `/wp-admin/...`.
// - `;params` end a segment's name (Tomcat, Jetty: `/wp-admin;x/` and `/public/..;/wp-admin`);
//   so does a NUL byte (C string APIs: `/wp-admin%00.jpg`).
// - trailing dots and spaces of a segment are dropped (Windows, IIS: `/wp-admin./`,
//   `/wp-admin%20/`); a segment of three or more dots is `.` (Windows drops the dots).
// - case: lower case (Unicode toLowerCase) on both sides: WordPress on Windows or macOS, IIS and
//   anything on a case-insensitive filesystem serve `/WP-ADMIN/` as `/wp-admin/`.
// - query (`?`) and fragment (`#`) are cut before decoding; an absolute-form target
//   (`http://host/p`) keeps its path; a target without a path (`*`, `host:443`) is `/`.
// The result is a string: bytes that are valid UTF-8 as their characters, invalid ones as
// U+FFFD (config paths are Unicode text, so they never hold invalid bytes; a request that does
// cannot equal a protected path there, only extend it). `%`, `?` and `#` are written as `%25`,
// `%3f`, `%23`, so normalising a normal form gives it back (stored paths are normal forms).

export interface RequestPaths {
  /** The normal form. */
  readonly path: string;
  /** The normal form with `..` segments left in place; null when there are none (the usual case). */
  readonly unresolved: string | null;
}

/** The normal form of a request target or configured path (query string dropped). */
export function normalizePath(rawUri: string): string {
  return requestPaths(rawUri).path;
}

const UTF8 = new TextDecoder('utf-8', { fatal: false });
const SPECIAL_AFTER_DECODING = /[%?#]/g;
const ESCAPED: Record<string, string> = { '%': '%25', '?': '%3f', '#': '%23' };

/** Both forms of a request target's path (see the header comment). */
export function requestPaths(rawUri: string): RequestPaths {
  const raw = pathPart(rawUri);
  if (isPlain(raw)) return { path: raw.toLowerCase(), unresolved: null };
  const segments = splitSegments(percentDecode(raw));
  const path = render(segments, true);
  const unresolved = segments.hasParent ? render(segments, false) : null;
  return { path, unresolved: unresolved === path ? null : unresolved };
}

function pathPart(rawUri: string): string {
  const q = rawUri.indexOf('?');
  let path = q === -1 ? rawUri : rawUri.slice(0, q);
  const hash = path.indexOf('#');
  if (hash !== -1) path = path.slice(0, hash);
  if (path.charCodeAt(0) === 47 /* / */) return path;
  // Absolute-form request targets ("http://host/path") carry the path after the authority.
  const scheme = path.indexOf('://');
  const slash = scheme === -1 ? -1 : path.indexOf('/', scheme + 3);
  return slash === -1 ? '/' : path.slice(slash);
}

/**
 * The hot path: a path of printable ASCII without escapes, backslashes, parameters, empty or dot
 * segments or segments ending in a dot is its own normal form, lower-cased.
 */
function isPlain(path: string): boolean {
  let prev = 47;
  for (let i = 1; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c <= 32 || c >= 127 || c === 37 /* % */ || c === 92 /* \ */ || c === 59 /* ; */) return false;
    if (prev === 47 && (c === 47 || c === 46 /* . */)) return false;
    if (prev === 46 && c === 47) return false;
    prev = c;
  }
  return prev !== 46;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/** UTF-8 bytes of the text, with every `%XX` replaced by its byte. */
function percentDecode(path: string): Buffer {
  const bytes = Buffer.from(path, 'utf8');
  let out = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 37 && i + 2 < bytes.length) {
      const hi = hexValue(bytes[i + 1]);
      const lo = hexValue(bytes[i + 2]);
      if (hi >= 0 && lo >= 0) { bytes[out++] = (hi << 4) | lo; i += 2; continue; }
    }
    bytes[out++] = b;
  }
  return bytes.subarray(0, out);
}

type Segment = Buffer | 'parent';
interface Segments {
  readonly list: Segment[];
  /** The path ends in a separator or a dot segment: it names a directory. */
  readonly directory: boolean;
  readonly hasParent: boolean;
}

function splitSegments(bytes: Buffer): Segments {
  const list: Segment[] = [];
  let hasParent = false;
  let directory = false;
  let start = 1;
  for (let i = 1; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 47 && bytes[i] !== 92) continue;
    const seg = segmentName(bytes.subarray(start, i));
    start = i + 1;
    directory = seg === null || seg === 'parent';
    if (seg === 'parent') hasParent = true;
    if (seg !== null) list.push(seg);
  }
  return { list, directory, hasParent };
}

/** A segment's name as the origin's filesystem sees it; null for an empty or `.` segment. */
function segmentName(raw: Buffer): Segment | null {
  let end = raw.length;
  for (let i = 0; i < end; i++) if (raw[i] === 59 /* ; */ || raw[i] === 0) end = i;
  let dots = 0;
  let kept = end;
  while (kept > 0 && (raw[kept - 1] === 46 || raw[kept - 1] === 32)) { if (raw[kept - 1] === 46) dots++; kept--; }
  if (kept > 0) return raw.subarray(0, kept);
  return dots === 2 ? 'parent' : null;
}

function render(segments: Segments, resolve: boolean): string {
  const out: Buffer[] = [];
  for (const seg of segments.list) {
    if (seg !== 'parent') out.push(seg);
    else if (resolve) out.pop();
    else out.push(DOT_DOT);
  }
  const parts: Buffer[] = [];
  for (const seg of out) parts.push(SLASH, seg);
  if (segments.directory || parts.length === 0) parts.push(SLASH);
  const text = UTF8.decode(Buffer.concat(parts));
  return text.replace(SPECIAL_AFTER_DECODING, (c) => ESCAPED[c]).toLowerCase();
}

const SLASH = Buffer.from('/');
const DOT_DOT = Buffer.from('..');
