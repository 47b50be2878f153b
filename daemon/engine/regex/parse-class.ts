// A PCRE character class `[...]` -> ranges. PCRE quirks kept: `]` first is a literal, `-` next to a
// class escape or at either end is a literal, [:name:] POSIX classes, \Q...\E inside classes.
import { escapeClass, normalize, posixClass, type Range } from './char-set.js';
import { PcreSyntaxError, readCharEscape } from './escapes.js';

export interface ParsedClass {
  ranges: Range[];
  negated: boolean;
  end: number;
}

type Item = { code: number } | { set: readonly Range[] };

const POSIX = /\[:(\^?)([a-z]+):\]/y;

export function parseClass(src: string, start: number): ParsedClass {
  let pos = start + 1;
  let negated = false;
  if (src[pos] === '^') { negated = true; pos++; }
  const ranges: Range[] = [];
  let first = true;
  let quoted = false; // inside \Q...\E

  const readItem = (): Item | null => {
    const c = src[pos];
    if (quoted) {
      if (c === '\\' && src[pos + 1] === 'E') { quoted = false; pos += 2; return null; }
      pos++;
      return { code: c.charCodeAt(0) };
    }
    if (c === '[') {
      POSIX.lastIndex = pos;
      const m = POSIX.exec(src);
      if (m) {
        const set = posixClass(m[2], m[1] === '^');
        if (!set) throw new PcreSyntaxError(`unknown POSIX class name '${m[2]}' at offset ${pos}`);
        pos = POSIX.lastIndex;
        return { set };
      }
    }
    if (c === '\\') {
      const letter = src[pos + 1];
      if (letter === 'Q') { quoted = true; pos += 2; return null; }
      if (letter === 'E') { pos += 2; return null; }
      const set = letter === 'N' ? undefined : escapeClass(letter ?? '');
      if (set) { pos += 2; return { set }; }
      const ch = readCharEscape(src, pos, true);
      pos = ch.end;
      return { code: ch.code };
    }
    pos++;
    return { code: c.charCodeAt(0) };
  };

  for (;;) {
    if (pos >= src.length) throw new PcreSyntaxError(`missing terminating ] for character class at offset ${start}`);
    if (src[pos] === ']' && !first && !quoted) { pos++; break; }
    first = false;
    const item = readItem();
    if (item === null) continue;
    if ('set' in item) { ranges.push(...item.set); continue; }
    // A range needs a '-' followed by something other than the closing bracket.
    if (src[pos] === '-' && pos + 1 < src.length && src[pos + 1] !== ']' && !quoted) {
      const save = pos;
      pos++;
      const hi = readItem();
      if (hi !== null && 'code' in hi) {
        if (hi.code < item.code) throw new PcreSyntaxError(`range out of order in character class at offset ${save}`);
        ranges.push([item.code, hi.code]);
        continue;
      }
      // '-' before a class escape or posix class is a literal.
      ranges.push([item.code, item.code], [0x2d, 0x2d]);
      if (hi !== null) ranges.push(...hi.set);
      continue;
    }
    ranges.push([item.code, item.code]);
  }
  return { ranges: normalize(ranges), negated, end: pos };
}
