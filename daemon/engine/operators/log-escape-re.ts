// ModSecurity's log_escape_re(): what it applies to an @rx pattern after macro expansion, before
// compiling it. It escapes : " + . [ ] ( ) ? / \ and control bytes (so an expanded value's dots are
// literal) but leaves ^ $ * | { } alone (so "a|b" in a TX variable still alternates). Kept as is.

const ESCAPED_AS_IS = new Set([':', '"', '+', '.', ']', '[', '(', ')', '?', '/']);
const NAMED: Record<string, string> = { '\b': '\\b', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\' };

export function logEscapeRe(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (ESCAPED_AS_IS.has(ch)) out += '\\' + ch;
    else if (NAMED[ch] !== undefined) out += NAMED[ch];
    else if (c <= 0x1f || c >= 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out;
}
