// Apache's ap_getword_conf, which is how ModSecurity v2 receives its directive arguments:
// words split on whitespace; a word starting with " or ' runs to the matching quote; in both
// quoted and bare words a backslash escapes a backslash (and, when quoted, the quote), every
// other backslash is kept as is. That is why `\\` in a CRS regex reaches PCRE as `\`.

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';
}

function unescape(text: string, quote: string): string {
  if (text.indexOf('\\') < 0) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === '\\' && (next === '\\' || (quote !== '' && next === quote))) {
      out += next;
      i++;
    } else {
      out += ch;
    }
  }
  return out;
}

/** A quoted word whose closing quote never comes (Apache takes the rest of the line silently). */
export class UnterminatedQuote extends Error {
  constructor(readonly quote: string) {
    super(`unterminated ${quote}: the quote opened here is never closed`);
  }
}

/**
 * Splits the argument part of a directive line into words as Apache does, except for one thing:
 * an unterminated quote throws UnterminatedQuote. Apache would take the rest of the line as the
 * word, so a typo in an operator's rule file loaded silently as something else;
 * ModSecurity v3's own parser refuses it too, and no CRS file has one.
 */
export function splitConfigWords(line: string): string[] {
  const words: string[] = [];
  let pos = 0;
  const end = line.length;
  for (;;) {
    while (pos < end && isSpace(line[pos])) pos++;
    if (pos >= end) return words;
    const quote = line[pos];
    if (quote === '"' || quote === "'") {
      let stop = pos + 1;
      while (stop < end && line[stop] !== quote) {
        if (line[stop] === '\\' && stop + 1 < end && (line[stop + 1] === quote || line[stop + 1] === '\\')) stop += 2;
        else stop++;
      }
      if (stop >= end) throw new UnterminatedQuote(quote);
      words.push(unescape(line.slice(pos + 1, stop), quote));
      pos = stop < end ? stop + 1 : stop;
    } else {
      let stop = pos;
      while (stop < end && !isSpace(line[stop])) stop++;
      words.push(unescape(line.slice(pos, stop), ''));
      pos = stop;
    }
  }
}
