// Character sets as sorted, merged code-unit ranges. PCRE classes, escapes (\d \s \h ...) and POSIX
// classes all become ranges, so negation, case folding and emission work the same way for each.

export type Range = readonly [lo: number, hi: number];

/** Highest code unit a JS non-unicode regex sees: class complements are taken within 0..MAX. */
export const MAX_CODE = 0xffff;

export function normalize(ranges: readonly Range[]): Range[] {
  // Most sets arrive sorted and disjoint already: return them as they are.
  let ordered = true;
  for (let i = 1; i < ranges.length && ordered; i++) ordered = ranges[i][0] > ranges[i - 1][1] + 1;
  if (ordered) return ranges as Range[];
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE) out.push([next, MAX_CODE]);
  return out;
}

/** PCRE without UTF mode and with its default "C" tables folds ASCII letters only. */
export function addAsciiCaseFold(ranges: readonly Range[]): Range[] {
  const extra: Range[] = [];
  for (const [lo, hi] of ranges) {
    const upLo = Math.max(lo, 0x41), upHi = Math.min(hi, 0x5a);
    if (upLo <= upHi) extra.push([upLo + 0x20, upHi + 0x20]);
    const lowLo = Math.max(lo, 0x61), lowHi = Math.min(hi, 0x7a);
    if (lowLo <= lowHi) extra.push([lowLo - 0x20, lowHi - 0x20]);
  }
  return normalize([...ranges, ...extra]);
}

export function hasAsciiLetter(ranges: readonly Range[]): boolean {
  return ranges.some(([lo, hi]) => (lo <= 0x5a && hi >= 0x41) || (lo <= 0x7a && hi >= 0x61));
}

const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
// PCRE >= 8.34 counts VT in \s; JS \s also has NBSP and Unicode spaces, so \s is never passed through.
const SPACE: Range[] = [[0x09, 0x0d], [0x20, 0x20]];
const HSPACE: Range[] = [[0x09, 0x09], [0x20, 0x20], [0xa0, 0xa0]];
const VSPACE: Range[] = [[0x0a, 0x0d], [0x85, 0x85]];

const ESCAPE_CLASSES: Record<string, Range[]> = {
  d: DIGIT, D: complement(DIGIT), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE),
  h: HSPACE, H: complement(HSPACE), v: VSPACE, V: complement(VSPACE), N: complement([[0x0a, 0x0a]]),
};

/** The set for a class escape letter (d D w W s S h H v V N), or undefined if it is not one. */
export function escapeClass(letter: string): Range[] | undefined {
  return Object.hasOwn(ESCAPE_CLASSES, letter) ? ESCAPE_CLASSES[letter] : undefined;
}

const POSIX: Record<string, Range[]> = {
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  digit: DIGIT,
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  upper: [[0x41, 0x5a]],
  lower: [[0x61, 0x7a]],
  space: SPACE,
  blank: [[0x09, 0x09], [0x20, 0x20]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  print: [[0x20, 0x7e]],
  graph: [[0x21, 0x7e]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
  word: WORD,
  ascii: [[0x00, 0x7f]],
};

/** A POSIX class name inside [[:name:]], or undefined when PCRE would reject it. */
export function posixClass(name: string, negated: boolean): Range[] | undefined {
  const set = POSIX[name];
  if (!set) return undefined;
  return negated ? complement(set) : set;
}
