// ModSecurity's parse_pm_content(): the phrase syntax shared by @pm, @pmFromFile lines and @strmatch.
// Surrounding double quotes are dropped, |41 42| hex blocks become bytes, and \: \; \\ \" escapes
// become the character. Returns null where ModSecurity's parser fails (the callers then fall back
// to the raw text, as ModSecurity does).

export function parsePmContent(raw: string): string | null {
  let offset = 0;
  while (offset < raw.length && isSpace(raw.charCodeAt(offset))) offset++;
  let parm = raw[offset] === '"' && raw.endsWith('"') && raw.length - offset >= 2
    ? raw.slice(offset + 1, raw.length - 1)
    : raw.slice(offset);
  if (parm.length === 0) return null;
  const out: number[] = [];
  let bin = false, esc = false, converted = false;
  let pending = '';
  for (let i = 0; i < parm.length; i++) {
    const c = parm[i];
    if (c === '|') {
      bin = !bin;
    } else if (!esc && c === '\\') {
      esc = true;
    } else if (bin) {
      if (/[0-9A-Fa-f]/.test(c)) {
        pending += c;
        if (pending.length === 2) {
          out.push(parseInt(pending, 16));
          pending = '';
          converted = true;
        }
      }
    } else if (esc) {
      if (c !== ':' && c !== ';' && c !== '\\' && c !== '"') return null;
      out.push(c.charCodeAt(0));
      esc = false;
      converted = true;
    } else {
      out.push(c.charCodeAt(0));
    }
  }
  if (!converted) return parm;
  parm = String.fromCharCode(...out);
  return parm;
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
