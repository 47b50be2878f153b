// ModSecurity v2's parse_arguments: split on the argument separator, name=value, both
// URL-decoded non-strictly ('+' is a space, %XX is a byte, a bad escape stays as written).
// A part without '=' is a name with an empty value; empty parts are skipped.

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** Non-strict URL decoding of a byte string, as v2 decodes argument names and values. */
export function urlDecodeArgument(text: string): string {
  if (text.indexOf('%') < 0 && text.indexOf('+') < 0) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 43) out += ' ';
    else if (ch === 37 && i + 2 < text.length) {
      const hi = hexValue(text.charCodeAt(i + 1));
      const lo = hexValue(text.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        out += String.fromCharCode(hi * 16 + lo);
        i += 2;
      } else out += '%';
    } else out += text[i];
  }
  return out;
}

export function parseQueryArguments(query: string, separator = '&'): Array<[string, string]> {
  const args: Array<[string, string]> = [];
  if (query === '') return args;
  for (const part of query.split(separator)) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) args.push([urlDecodeArgument(part), '']);
    else args.push([urlDecodeArgument(part.slice(0, eq)), urlDecodeArgument(part.slice(eq + 1))]);
  }
  return args;
}
