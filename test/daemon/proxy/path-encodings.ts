import fc from 'fast-check';

// Random spellings of a path that origins read as that same path (or as a path below it): what an
// attacker tries against page protection and rate limits. Each spelling is built from the path's
// segments by independent choices, so a failing case shrinks to the one trick that broke it:
// - every byte literal, or percent-encoded in upper or lower hex (non-ASCII: its UTF-8 bytes);
// - ASCII letters in either case (case-insensitive origins);
// - separators as `/`, `//`, `/./`, `\`, `%2f`, `%5C`, `/%2e/`, or a detour `/zz1/../` (`..` also
//   as `%2e%2e`, `.%2E`, `..;`);
// - `;params` after a segment (servlet containers), trailing `.` or `%20` (Windows);
// - below the protected path: a tail with invalid UTF-8 (`%ff`, `%c0%af`, `%e2%82`) and a query.
// `raw` is what goes on the request line: printable ASCII only (node's parser refuses the rest).

export interface Spelling {
  /** The request target. */
  readonly raw: string;
}

const SEGMENT_CHARS = [...'abcdefghijklmnopqrstuvwxyABCDEFGHIJKLMNOPQRSTUVWXY0123456789-_~!$&\'()*+,=@.', 'é', 'ß', '中', 'Ω'];
/** Bytes sent as themselves when not encoded (the rest must be encoded to reach the parser). */
const LITERAL_OK = /^[A-Za-z0-9\-_~!$&'()*+,=@.]$/;

/** A segment of a configured path: 1-8 chars, not a dot segment, no `z` (the detour segments start with zz). */
export const segmentArb = fc.array(fc.constantFrom(...SEGMENT_CHARS), { minLength: 1, maxLength: 8 })
  .map((cs) => cs.join(''))
  .filter((s) => !/^[. ]*$/.test(s) && !s.endsWith('.') && !s.startsWith('.'));

/** A configured protected path: 1-3 segments, maybe with a trailing slash. */
export const protectedPathArb = fc.tuple(fc.array(segmentArb, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([segs, slash]) => '/' + segs.join('/') + (slash ? '/' : ''));

const byteSpelling = fc.constantFrom('literal', 'literal', 'upper', 'lower');

function spellSegment(seg: string, choices: Array<[string, boolean]>): string {
  let out = '';
  const bytes = Buffer.from(seg, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const [how, flip] = choices[i % choices.length];
    let ch = String.fromCharCode(bytes[i]);
    if (flip && /[a-zA-Z]/.test(ch)) ch = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
    const b = ch.charCodeAt(0);
    if (how === 'literal' && b < 128 && LITERAL_OK.test(ch)) out += ch;
    else {
      const hex = b.toString(16).padStart(2, '0');
      out += '%' + (how === 'lower' ? hex.toLowerCase() : hex.toUpperCase());
    }
  }
  return out;
}

const NGINX_SEPARATORS = ['/', '/', '/', '//', '/./', '%2f', '/%2e/', '/zz1/../', '/zz2/%2e%2e/', '/zz3/.%2E/'];
const OTHER_SEPARATORS = ['\\', '%5C', '/zz4/..;/', '/zz5\\..\\'];
const OTHER_DECORATIONS = [';jsessionid=1', ';', '.', '%2e', '%20', '.%20', ';a=b,c'];

/** Which origins' readings to draw from: all (default), or only what nginx itself decodes (case-sensitive, no `\`, no params). */
export interface SpellingOptions {
  readonly nginxOnly?: boolean;
}
const tailArb = fc.constantFrom('', '', 'x', 'index.php', '%ff', 'a%c0%af', '%e2%82', '%80%80/y', '%FF%FE', 'q%00.jpg');
// No `#fragment`: the protocol guard refuses a target holding one (400) before any path check
// (hardening/request-guard.ts, protocol.test.ts).
const queryArb = fc.constantFrom('', '', '?a=1', '?r=/../../x', '?%ff', '?a=%23frag');

/**
 * Spellings of `path` (a configured path) or of a path below it. Segments of `path` are spelled
 * byte by byte; the separators before and between them (and before the tail) are drawn freely.
 */
export function spellingArb(path: string, options: SpellingOptions = {}): fc.Arbitrary<Spelling> {
  const segs = path.split('/').filter((s) => s !== '');
  const separatorArb = fc.constantFrom(...NGINX_SEPARATORS, ...(options.nginxOnly ? [] : OTHER_SEPARATORS));
  const decorationArb = fc.constantFrom('', '', '', ...(options.nginxOnly ? [] : OTHER_DECORATIONS));
  const caseFlip = options.nginxOnly ? fc.constant(false) : fc.boolean();
  const dirOnly = path.endsWith('/');
  return fc.record({
    spelled: fc.tuple(...segs.map(() => fc.tuple(fc.array(fc.tuple(byteSpelling, caseFlip), { minLength: 1, maxLength: 6 }), separatorArb, decorationArb))),
    belowSep: separatorArb,
    tail: tailArb,
    closing: fc.constantFrom('', '/'),
    query: queryArb,
  }).map(({ spelled, belowSep, tail, closing, query }) => {
    let raw = '';
    segs.forEach((seg, i) => {
      const [choices, sep, decoration] = spelled[i];
      raw += sep + spellSegment(seg, choices) + decoration;
    });
    // A path ending in '/' protects only below it: always go below; otherwise maybe stop here.
    if (dirOnly || tail !== '') raw += belowSep + (tail || 'x');
    raw += closing + query;
    return { raw: raw.startsWith('/') ? raw : '/' + raw };
  });
}
