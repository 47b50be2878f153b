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
 * Continues hash h over the upper-cased text. A NUL or high byte needs no special case: no
 * keyword has one, so the exact compare after the probe rejects it.
 */
function hashUpper(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = step(h, upperAscii(s.charCodeAt(i)));
  return h;
}

for (let k = 0; k < words.length; k++) {
  let slot = hashUpper(SEED, words[k]) & MASK;
  while (slots[slot] !== 0) slot = (slot + 1) & MASK;
  slots[slot] = k + 1;
}

/** Does keyword k equal first + (' ' + second when second is given), ASCII case-insensitively? */
function keywordEquals(k: number, first: string, second: string | null): boolean {
  const w = words[k];
  const n = first.length;
  if (w.length !== (second === null ? n : n + 1 + second.length)) return false;
  for (let i = 0; i < n; i++) if (w.charCodeAt(i) !== upperAscii(first.charCodeAt(i))) return false;
  if (second === null) return true;
  if (w.charCodeAt(n) !== SPACE) return false;
  for (let i = 0; i < second.length; i++) if (w.charCodeAt(n + 1 + i) !== upperAscii(second.charCodeAt(i))) return false;
  return true;
}


function find(first: string, second: string | null): number {
  const len = second === null ? first.length : first.length + 1 + second.length;
  if (len === 0 || len > longestKeyword) return 0;
  let h = hashUpper(SEED, first);
  if (second !== null) h = hashUpper(step(h, SPACE), second);
  for (let slot = h & MASK; slots[slot] !== 0; slot = (slot + 1) & MASK) {
    const k = slots[slot] - 1;
    if (keywordEquals(k, first, second)) return wordTypes[k];
  }
  return 0;
}

/** Token type of a word (ASCII case-insensitive), or 0 when it is no keyword. */
export function lookupWord(word: string): number {
  return find(word, null);
}

/** Token type of the phrase `first second` ("UNION ALL"), without building it, or 0. */
export function lookupPhrase(first: string, second: string): number {
  return find(first, second);
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
 * Fingerprints upper-cased: libinjection compares them case-insensitively, so 't' (SQL type)
 * and 'T' (T-SQL) share entries, as in the reference.
 */
const fingerprints = new Set(FINGERPRINTS_PACKED.split('\n').map((fp) => fp.toUpperCase()));

/** True when a fingerprint (token types, e.g. "s&1c") is on libinjection's SQLi list. */
export function isKnownFingerprint(fingerprint: string): boolean {
  return fingerprints.has(fingerprint.toUpperCase());
}
