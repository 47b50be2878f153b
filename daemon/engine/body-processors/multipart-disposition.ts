// A part's Content-Disposition, parsed like ModSecurity's multipart_parse_content_disposition():
// only form-data with name= and filename=, values quoted ("..." or, flagged, '...') or token
// characters. Negative codes are ModSecurity's, so error messages read the same.

export interface Disposition {
  code: number;            // 1 = ok, negative = ModSecurity's error code
  name?: string;
  filename?: string;
  invalidQuoting: boolean;
  /** The last name= / filename= values seen, even when the header is then rejected. */
  lastName?: string;
  lastFilename?: string;
}

function isTokenChar(c: number): boolean {
  if (c <= 32 || c >= 127) return false;
  return !'()<>@,;:\\"/[]?='.includes(String.fromCharCode(c));
}

export function parseDisposition(value: string): Disposition {
  const d: Disposition = { code: 1, invalidQuoting: false };
  const ret = (code: number) => ({ ...d, code });
  if (!value.startsWith('form-data')) return ret(-1);
  let p = 9;
  const n = value.length;
  const skipBlank = () => { while (p < n && (value[p] === '\t' || value[p] === ' ')) p++; };
  skipBlank();
  if (p >= n) return d;
  if (value[p] !== ';') return ret(-2);
  p++;
  while (p < n) {
    skipBlank();
    if (p >= n) return ret(-3);
    let start = p;
    while (p < n && value[p] !== '=' && value[p] !== '\t' && value[p] !== ' ') p++;
    if (p >= n) return ret(-4);
    const name = value.slice(start, p);
    skipBlank();
    if (p >= n) return ret(-5);
    if (value[p] !== '=') return ret(-13);
    p++;
    skipBlank();
    if (p >= n) return ret(-6);
    let v = '';
    let quote = '';
    if (value[p] === '"' || value[p] === "'") {
      quote = value[p];
      if (quote === "'") d.invalidQuoting = true;
      p++;
      if (p >= n) return ret(-7);
      let closed = false;
      while (p < n) {
        if (value[p] === '\\') {
          if (p + 1 >= n) return ret(-8);
          if (value[p + 1] === quote || value[p + 1] === '\\') p++;
        } else if (value[p] === quote) {
          closed = true;
          break;
        }
        v += value[p++];
      }
      if (!closed) return ret(-10);
      p++;
    } else {
      start = p;
      while (p < n && isTokenChar(value.charCodeAt(p))) p++;
      v = value.slice(start, p);
    }
    // A ' inside a "-quoted value is a character like any other (O'Brien.jpg), as ModSecurity
    // 2.9.6+ reads it; unquoted or '-quoted, it is a quoting trick.
    const strayQuote = quote !== '"' && v.includes("'");
    if (name === 'name') {
      if (strayQuote) d.invalidQuoting = true;
      d.lastName = v;
      if (d.name !== undefined) return ret(-14);
      d.name = v;
    } else if (name === 'filename') {
      if (strayQuote) d.invalidQuoting = true;
      d.lastFilename = v;
      if (d.filename !== undefined) return ret(-15);
      d.filename = v;
    } else {
      return ret(-11);
    }
    if (p < n) {
      skipBlank();
      if (p >= n) return d;
      if (value[p] !== ';') {
        if (value[p - 1] === "'" || value[p - 1] === '"') d.invalidQuoting = true;
        return ret(-12);
      }
      p++;
    }
  }
  return d;
}
