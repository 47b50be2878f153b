// Version comparison for WordPress core, plugins and themes: PHP `version_compare` with the four
// Wordfence CLI departures (vulndb README §4): leading `v` stripped, tokens matched exactly and
// case-insensitively, unknown tokens below `dev`, and a missing part counts as the number 0.
// Versions are compiled once (feed bounds at load, request versions once per check) and then
// compared as part arrays, so the hot path never re-parses a string.

import { normaliseVersion } from '../../shared/schemas/vulndb.js';

export { normaliseVersion };

/** Rank of a part: numbers are 4; the special tokens sit around them; anything else is -1. */
const TOKEN_RANK: ReadonlyMap<string, number> = new Map([
  ['dev', 0],
  ['alpha', 1],
  ['a', 1],
  ['beta', 2],
  ['b', 2],
  ['rc', 3],
  ['pl', 5],
  ['p', 5],
]);
const NUMBER_RANK = 4;
const UNKNOWN_TOKEN_RANK = -1;

/** One part of a canonical version. `num` is the digits without leading zeros ('' for tokens). */
export interface VersionPart {
  readonly rank: number;
  readonly num: string;
}

/** A compiled version: its canonical parts, ready for `compareCompiled`. */
export type CompiledVersion = readonly VersionPart[];

const ZERO: VersionPart = { rank: NUMBER_RANK, num: '0' };

/**
 * §4.2-4.3: split into maximal runs of ASCII digits and ASCII letters; every other character
 * (`.`, `-`, `_`, `+`, anything else) only separates. That is exactly "replace separators with
 * dots, insert a dot at every digit/non-digit switch, collapse and trim dots, split".
 */
export function compileVersion(raw: string): CompiledVersion {
  const text = normaliseVersion(raw);
  const parts: VersionPart[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      let j = i + 1;
      while (j < text.length && isDigit(text.charCodeAt(j))) j++;
      parts.push({ rank: NUMBER_RANK, num: stripLeadingZeros(text.slice(i, j)) });
      i = j;
    } else if (isLetter(c)) {
      let j = i + 1;
      while (j < text.length && isLetter(text.charCodeAt(j))) j++;
      const token = text.slice(i, j).toLowerCase();
      parts.push({ rank: TOKEN_RANK.get(token) ?? UNKNOWN_TOKEN_RANK, num: '' });
      i = j;
    } else {
      i++;
    }
  }
  return parts;
}

/** Compares two compiled versions: negative, zero or positive. */
export function compareCompiled(a: CompiledVersion, b: CompiledVersion): number {
  const n = a.length > b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const pa = i < a.length ? a[i] : ZERO;
    const pb = i < b.length ? b[i] : ZERO;
    if (pa.rank !== pb.rank) return pa.rank < pb.rank ? -1 : 1;
    if (pa.rank === NUMBER_RANK && pa.num !== pb.num) return compareDigits(pa.num, pb.num);
  }
  return 0;
}

/** `cmp(a, b)` of the README: compiles both sides; use `compareCompiled` on hot paths. */
export function compareVersions(a: string, b: string): number {
  return compareCompiled(compileVersion(a), compileVersion(b));
}

/** Digit strings without leading zeros: longer is larger, equal lengths compare as text. */
function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function stripLeadingZeros(digits: string): string {
  let k = 0;
  while (k < digits.length - 1 && digits.charCodeAt(k) === 48) k++;
  return k === 0 ? digits : digits.slice(k);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
