/**
 * The name and value checks of libinjection_xss.c. They take the input string with a token's
 * start and length; like the C code they may read a few bytes past a token (those are then
 * the input's next bytes; past the input's end they read as NUL).
 */
import { ATTR_BLACK, ATTR_NONE, BLACK_ATTRS, BLACK_EVENTS, BLACK_TAGS } from './xss-blacklists.js';

const byteAt = (s: string, i: number): number => (i < s.length ? s.charCodeAt(i) : 0);
const upper = (c: number): number => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c);

/**
 * cstrcasecmp_with_null: do the n bytes at s[at] spell `name` (upper case), ignoring NULs in
 * the input and upper-casing its a-z?
 */
export function equalsIgnoringNul(name: string, s: string, at: number, n: number): boolean {
  let ai = 0;
  for (let i = 0; i < n; i++) {
    const cb = byteAt(s, at + i);
    if (cb === 0) continue;
    if (ai >= name.length || name.charCodeAt(ai) !== upper(cb)) return false;
    ai++;
  }
  return ai === name.length;
}

/**
 * Do the bytes at s[at] start with `name` (upper case), ASCII case-insensitively? For a fixed
 * length window this is what equalsIgnoringNul gives: a NUL in the window leaves a letter
 * uncompared, so it never matches.
 */
function startsWithUpper(s: string, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) if (upper(byteAt(s, at + i)) !== name.charCodeAt(i)) return false;
  return true;
}

/** Names grouped by first letter, so a check compares only the few that can match. */
function byFirstLetter<T>(entries: readonly T[], nameOf: (e: T) => string): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const e of entries) {
    const c = nameOf(e).charCodeAt(0);
    let list = map.get(c);
    if (list === undefined) map.set(c, (list = []));
    list.push(e);
  }
  return map;
}

const TAGS_BY_LETTER = byFirstLetter(BLACK_TAGS, (t) => t);
const ATTRS_BY_LETTER = byFirstLetter(BLACK_ATTRS, ([name]) => name);
const EVENTS_BY_LETTER = byFirstLetter(BLACK_EVENTS, (e) => e);
const NO_NAMES: never[] = [];

/** The upper-cased first non-NUL byte of s[start, start+len), or -1. */
function firstLetter(s: string, start: number, len: number): number {
  for (let i = start; i < start + len; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0) return upper(c);
  }
  return -1;
}

/** Tags that run or load code, and anything starting with "svg" or "xsl". */
export function isBlackTag(s: string, start: number, len: number): boolean {
  if (len < 3) return false;
  for (const tag of TAGS_BY_LETTER.get(firstLetter(s, start, len)) ?? NO_NAMES) {
    if (equalsIgnoringNul(tag, s, start, len)) return true;
  }
  return startsWithUpper(s, start, 'SVG') || startsWithUpper(s, start, 'XSL');
}

/** The ATTR_* kind of an attribute name. */
export function blackAttrKind(s: string, start: number, len: number): number {
  if (len < 2) return ATTR_NONE;
  if (len >= 5) {
    if (startsWithUpper(s, start, 'ON')) {
      // "on" + an event name, compared over the event name's length: "onclickfoo" counts too
      for (const event of EVENTS_BY_LETTER.get(upper(byteAt(s, start + 2))) ?? NO_NAMES) {
        if (startsWithUpper(s, start + 2, event)) return ATTR_BLACK;
      }
    }
    // xmlns and xlink can create arbitrary tags
    if (startsWithUpper(s, start, 'XMLNS') || startsWithUpper(s, start, 'XLINK')) return ATTR_BLACK;
  }
  for (const [name, kind] of ATTRS_BY_LETTER.get(firstLetter(s, start, len)) ?? NO_NAMES) {
    if (equalsIgnoringNul(name, s, start, len)) return kind;
  }
  return ATTR_NONE;
}

const HEX_VALUE = new Int16Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUE[0x30 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_VALUE[0x41 + i] = 10 + i;
  HEX_VALUE[0x61 + i] = 10 + i;
}
const hexValue = (c: number): number => (c < 256 ? HEX_VALUE[c] : -1);

/** html_decode_char_at's two results: the decoded char and the bytes it took. */
const decoded = { ch: 0, consumed: 0 };

/** Decodes one char at s[at] (n bytes left): a byte, or a numeric entity &#65; / &#x41;. */
function decodeCharAt(s: string, at: number, n: number): void {
  decoded.consumed = 1;
  const c = byteAt(s, at);
  if (c !== 0x26 || n < 2) {
    decoded.ch = c;
    return;
  }
  decoded.ch = 0x26; // '&' unless a numeric entity follows
  if (byteAt(s, at + 1) !== 0x23) return; // named entities do not matter here

  const marker = byteAt(s, at + 2);
  const hex = marker === 0x78 || marker === 0x58;
  const digit = (b: number): number => (hex ? hexValue(b) : b >= 0x30 && b <= 0x39 ? b - 0x30 : -1);
  let i = hex ? 3 : 2;
  let val = digit(byteAt(s, at + i));
  if (val < 0) return;
  for (i += 1; i < n; i++) {
    const b = byteAt(s, at + i);
    if (b === 0x3b) {
      decoded.consumed = i + 1;
      decoded.ch = val;
      return;
    }
    const d = digit(b);
    if (d < 0) {
      decoded.consumed = i;
      decoded.ch = val;
      return;
    }
    val = val * (hex ? 16 : 10) + d;
    if (val > 0x1000ff) return; // too large: a plain '&'
  }
  decoded.consumed = i;
  decoded.ch = val;
}

/**
 * htmlencode_startswith: does the HTML-encoded text s[at, at+n) start with `prefix`, ignoring
 * leading white space and control chars, NULs and newlines, and ASCII case?
 */
function decodedStartsWith(prefix: string, s: string, at: number, n: number): boolean {
  let ai = 0;
  let first = true;
  while (n > 0) {
    if (ai === prefix.length) return true;
    decodeCharAt(s, at, n);
    let cb = decoded.ch;
    at += decoded.consumed;
    n -= decoded.consumed;
    if (first && cb <= 32) continue;
    first = false;
    if (cb === 0 || cb === 10) continue;
    if (cb >= 0x61 && cb <= 0x7a) cb -= 0x20;
    // the C code compares (char)cb: only the low byte of a large entity counts
    if (prefix.charCodeAt(ai) !== (cb & 0xff)) return false;
    ai++;
  }
  return ai === prefix.length;
}

const BLACK_SCHEMES = ['DATA', 'VIEW-SOURCE', 'JAVA', 'VBSCRIPT'];

/** A URL value with a dangerous scheme (JAVA covers javascript:). */
export function isBlackUrl(s: string, start: number, len: number): boolean {
  // skip white space, controls and high bytes (Opera treats some UTF-8 as space)
  while (len > 0) {
    const c = s.charCodeAt(start);
    if (c > 32 && c < 127) break;
    start++;
    len--;
  }
  for (const scheme of BLACK_SCHEMES) if (decodedStartsWith(scheme, s, start, len)) return true;
  return false;
}
