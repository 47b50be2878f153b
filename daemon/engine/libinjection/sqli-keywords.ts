/**
 * The SQL keyword table and the fingerprint list, unpacked once at module load.
 *
 * libinjection binary-searches one sorted C array holding both (fingerprints as "0" + upper
 * case). Its compare upper-cases ASCII a-z of the key only and never matches a key holding a
 * NUL, so a lookup is exactly "upper-case a-z, then exact match". Words are looked up for
 * nearly every token, so the table is an open-addressing hash over char codes: no upper-cased
 * copy and no string hashing per lookup.
 */
import { FINGERPRINTS_PACKED, KEYWORDS_PACKED } from './sqli-data.generated.js';

const words: string[] = [];
const wordTypes: number[] = [];
let longestKeyword = 0;
for (const line of KEYWORDS_PACKED.split('\n')) {
  words.push(line.substring(1));
  wordTypes.push(line.charCodeAt(0));
  longestKeyword = Math.max(longestKeyword, line.length - 1);
}

const SLOTS = 4096; // > 4 x 985 keywords: short probe chains
const MASK = SLOTS - 1;
/** Slot -> keyword index + 1 (0 = empty). */
const slots = new Int16Array(SLOTS);

const upperAscii = (c: number): number => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c);
const step = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);
const SPACE = 0x20;
const SEED = 0x811c9dc5 | 0;

/**
 * Continues hash h over the upper-cased bytes s[from, from+len). A NUL or high byte needs no
 * special case: no keyword has one, so the exact compare after the probe rejects it.
 */
function hashUpper(h: number, s: string, from: number, len: number): number {
  for (let i = from; i < from + len; i++) h = step(h, upperAscii(s.charCodeAt(i)));
  return h;
}

for (let k = 0; k < words.length; k++) {
  let slot = hashUpper(SEED, words[k], 0, words[k].length) & MASK;
  while (slots[slot] !== 0) slot = (slot + 1) & MASK;
  slots[slot] = k + 1;
}

/** Does w, from offset `at`, hold the upper-cased bytes s[from, from+len)? */
function sameUpper(w: string, at: number, s: string, from: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (w.charCodeAt(at + i) !== upperAscii(s.charCodeAt(from + i))) return false;
  return true;
}

/** A run of bytes: the keyword table looks up views of the input without cutting them out. */
interface ByteRange {
  readonly src: string;
  readonly start: number;
  readonly len: number;
}

/** Type of the keyword spelled by s[from, from+len), plus ' ' + the second range when given; or 0. */
function find(s: string, from: number, len: number, second: ByteRange | null): number {
  const total = second === null ? len : len + 1 + second.len;
  if (total === 0 || total > longestKeyword) return 0;
  let h = hashUpper(SEED, s, from, len);
  if (second !== null) h = hashUpper(step(h, SPACE), second.src, second.start, second.len);
  for (let slot = h & MASK; slots[slot] !== 0; slot = (slot + 1) & MASK) {
    const k = slots[slot] - 1;
    const w = words[k];
    if (w.length !== total || !sameUpper(w, 0, s, from, len)) continue;
    if (second === null || (w.charCodeAt(len) === SPACE && sameUpper(w, len + 1, second.src, second.start, second.len))) return wordTypes[k];
  }
  return 0;
}

/** Token type of the word s[from, from+len) (ASCII case-insensitive), or 0 when it is no keyword. */
export function lookupRange(s: string, from: number, len: number): number {
  return find(s, from, len, null);
}

/** Token type of the phrase "first second" ("UNION ALL"), without building it, or 0. */
export function lookupPhrase(first: ByteRange, second: ByteRange): number {
  return find(first.src, first.start, first.len, second);
}

/** Two-byte operators ("!=", "||", ":=", ...) by (upper(c0) << 8 | upper(c1)). */
const twoByteWords = new Map<number, number>();
for (let k = 0; k < words.length; k++) {
  if (words[k].length === 2) twoByteWords.set((words[k].charCodeAt(0) << 8) | words[k].charCodeAt(1), wordTypes[k]);
}

/** Token type of the two bytes c0 c1 as one word (the operator lookup), or 0. */
export function lookupTwoBytes(c0: number, c1: number): number {
  return twoByteWords.get((upperAscii(c0) << 8) | upperAscii(c1)) ?? 0;
}

/**
 * Fingerprints as numbers: the upper-cased type codes read as base-128 digits (all are ASCII
 * and non-zero, so every fingerprint of up to five types has its own number). Upper case
 * because libinjection compares fingerprints case-insensitively: 't' (SQL type) and 'T'
 * (T-SQL) share entries, as in the reference. A number avoids building a string per check.
 */
const fingerprintKeys = new Set<number>();
let oneTypeFingerprints = '';
for (const fp of FINGERPRINTS_PACKED.split('\n')) {
  if (fp.length === 1) oneTypeFingerprints += fp;
  let key = 0;
  for (let i = 0; i < fp.length; i++) key = key * 128 + upperAscii(fp.charCodeAt(i));
  fingerprintKeys.add(key);
}

/** True when the types of tokens[0..count) form a fingerprint on libinjection's SQLi list. */
export function isKnownFingerprint(tokens: readonly { type: number }[], count: number): boolean {
  let key = 0;
  for (let i = 0; i < count; i++) key = key * 128 + upperAscii(tokens[i].type);
  return fingerprintKeys.has(key);
}

/**
 * True when no one-token fingerprint but "X" (an unparsable comment) is listed: then a value
 * that tokenizes to a single word or number can never be SQLi (sqli.ts uses it as a shortcut).
 */
export const ONLY_EVIL_HAS_ONE_TYPE = oneTypeFingerprints.replace('X', '') === '';
