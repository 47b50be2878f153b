// Turns configuration text into directives the way Apache's config reader does for
// ModSecurity v2: a line ending in a backslash continues on the next line (the backslash and
// the line break are removed, the next line's indentation is kept); leading and trailing
// whitespace of the joined line is dropped; a line starting with `#` is a comment.
import { SecLangError, type SourceLocation } from './errors.js';
import { splitConfigWords, UnterminatedQuote } from './words.js';

export interface Directive {
  /** The directive name as written (SecRule, Include, ...). */
  name: string;
  args: string[];
  file: string;
  /** Line of the directive's first physical line. */
  line: number;
}

function endsWithContinuation(line: string): boolean {
  // Apache: `[^\\]\\$` only; a doubled backslash at the end is a literal backslash.
  return line.endsWith('\\') && !line.endsWith('\\\\');
}

function wordsOf(rest: string, location: SourceLocation): string[] {
  try {
    return splitConfigWords(rest);
  } catch (error) {
    if (error instanceof UnterminatedQuote) throw new SecLangError(location, error.message);
    throw error;
  }
}

export function lexConfig(text: string, file: string): Directive[] {
  const lines = text.split('\n');
  const directives: Directive[] = [];
  for (let i = 0; i < lines.length; i++) {
    const startLine = i + 1;
    let logical = lines[i].replace(/\r$/, '').replace(/[ \t]+$/, '');
    while (endsWithContinuation(logical) && i + 1 < lines.length) {
      i++;
      logical = logical.slice(0, -1) + lines[i].replace(/\r$/, '').replace(/[ \t]+$/, '');
    }
    if (endsWithContinuation(logical)) logical = logical.slice(0, -1);
    logical = logical.trim();
    if (logical === '' || logical.startsWith('#')) continue;
    const nameEnd = logical.search(/\s/);
    const name = nameEnd < 0 ? logical : logical.slice(0, nameEnd);
    const rest = nameEnd < 0 ? '' : logical.slice(nameEnd);
    directives.push({ name, args: wordsOf(rest, { file, line: startLine }), file, line: startLine });
  }
  return directives;
}
