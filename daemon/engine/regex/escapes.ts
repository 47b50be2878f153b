// Escapes that stand for one character, shared by the main pattern and character classes.
// Non-UTF PCRE: every character value must fit a byte.

export class PcreSyntaxError extends Error {}

export interface CharEscape {
  code: number;
  end: number;
}

const SIMPLE: Record<string, number> = { a: 0x07, e: 0x1b, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };

/** Reads the escape that starts with the backslash at `start`. */
export function readCharEscape(src: string, start: number, inClass: boolean): CharEscape {
  const letter = src[start + 1];
  if (letter === undefined) throw new PcreSyntaxError('\\ at end of pattern');
  const simple = SIMPLE[letter];
  if (simple !== undefined) return { code: simple, end: start + 2 };
  if (inClass && letter === 'b') return { code: 0x08, end: start + 2 };
  switch (letter) {
    case 'x': {
      if (src[start + 2] === '{') {
        const close = src.indexOf('}', start + 3);
        const hex = close < 0 ? '' : src.slice(start + 3, close);
        if (!/^[0-9a-fA-F]+$/.test(hex)) throw new PcreSyntaxError(`malformed \\x{...} at offset ${start}`);
        return { code: byteValue(parseInt(hex, 16), start), end: close + 1 };
      }
      const m = /[0-9a-fA-F]{0,2}/y;
      m.lastIndex = start + 2;
      const hex = m.exec(src)![0];
      return { code: hex ? parseInt(hex, 16) : 0, end: start + 2 + hex.length };
    }
    case 'o': {
      const m = /\{([0-7]+)\}/y;
      m.lastIndex = start + 2;
      const r = m.exec(src);
      if (!r) throw new PcreSyntaxError(`malformed \\o{...} at offset ${start}`);
      return { code: byteValue(parseInt(r[1], 8), start), end: m.lastIndex };
    }
    case 'c': {
      const ch = src[start + 2];
      if (ch === undefined || ch.charCodeAt(0) > 0x7e) throw new PcreSyntaxError(`\\c at offset ${start} must be followed by an ASCII character`);
      return { code: ch.toUpperCase().charCodeAt(0) ^ 0x40, end: start + 3 };
    }
    case 'u': case 'U': case 'l': case 'L':
      throw new PcreSyntaxError(`PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u (offset ${start})`);
  }
  if (letter >= '0' && letter <= '9') {
    // Octal: \0 plus up to two more digits, or (when not a back reference) up to three digits.
    const m = letter === '0' ? /0[0-7]{0,2}/y : /[0-7]{1,3}/y;
    m.lastIndex = start + 1;
    const r = m.exec(src);
    if (!r) return { code: letter.charCodeAt(0), end: start + 2 };
    return { code: byteValue(parseInt(r[0], 8), start), end: start + 1 + r[0].length };
  }
  // Any other escaped character stands for itself (PCRE without PCRE_EXTRA).
  return { code: src.charCodeAt(start + 1), end: start + 2 };
}

function byteValue(code: number, offset: number): number {
  if (code > 0xff) throw new PcreSyntaxError(`character value at offset ${offset} is too large for byte mode (no UTF)`);
  return code;
}
