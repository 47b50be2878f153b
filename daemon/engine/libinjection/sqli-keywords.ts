/**
 * The SQL keyword table and the fingerprint list, unpacked once at module load.
 *
 * libinjection binary-searches one sorted C array holding both (fingerprints as "0" + upper
 * case). Its compare upper-cases ASCII a-z of the key only and never matches a key holding a
 * NUL, so the lookup is exactly "upper-case a-z, then exact match": a Map here.
 */
import { FINGERPRINTS_PACKED, KEYWORDS_PACKED } from './sqli-data.generated.js';

const keywords = new Map<string, number>();
let longestKeyword = 0;
/** Two-byte operators ("!=", "||", ":=", ...) by (upper(c0) << 8 | upper(c1)): no string built. */
const twoByteWords = new Map<number, number>();

const upperAscii = (c: number): number => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c);

for (const line of KEYWORDS_PACKED.split('\n')) {
  const word = line.substring(1);
  const type = line.charCodeAt(0);
  keywords.set(word, type);
  if (word.length > longestKeyword) longestKeyword = word.length;
  if (word.length === 2) twoByteWords.set((word.charCodeAt(0) << 8) | word.charCodeAt(1), type);
}

/**
 * Fingerprints upper-cased: libinjection compares them case-insensitively, so 't' (SQL type)
 * and 'T' (T-SQL) share entries, as in the reference.
 */
const fingerprints = new Set(FINGERPRINTS_PACKED.split('\n').map((fp) => fp.toUpperCase()));

/** Token type of a word (ASCII case-insensitive), or 0 when it is no keyword. */
export function lookupWord(word: string): number {
  const n = word.length;
  if (n === 0 || n > longestKeyword) return 0;
  for (let i = 0; i < n; i++) {
    const c = word.charCodeAt(i);
    // Keywords are printable ASCII: a NUL or a high byte can never match, and excluding them
    // keeps toUpperCase to a-z only (it would map 'ß' to "SS").
    if (c === 0 || c > 0x7e) return 0;
  }
  return keywords.get(word.toUpperCase()) ?? 0;
}

/** Token type of the two bytes c0 c1 as one word (the operator lookup), or 0. */
export function lookupTwoBytes(c0: number, c1: number): number {
  return twoByteWords.get((upperAscii(c0) << 8) | upperAscii(c1)) ?? 0;
}

/** True when a fingerprint (token types, e.g. "s&1c") is on libinjection's SQLi list. */
export function isKnownFingerprint(fingerprint: string): boolean {
  return fingerprints.has(fingerprint.toUpperCase());
}
