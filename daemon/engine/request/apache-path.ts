// REQUEST_FILENAME as ModSecurity v2 sees it from phase 2 on. v2 reads Apache's
// r->parsed_uri.path, which Apache URL-decodes and dot-segment-normalises in place between
// ModSecurity's phase 1 (post_read_request) and phase 2 (fixups). CRS's tests depend on it
// (933151-1 finds `array_diff foo (` in `/array_diff%20foo%20%28`).

function hex(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** Apache's ap_unescape_url: undefined when Apache would refuse the path (bad escape, %00, %2F). */
export function apacheUnescapePath(path: string): string | undefined {
  if (path.indexOf('%') < 0) return path;
  let out = '';
  for (let i = 0; i < path.length; i++) {
    if (path[i] !== '%') {
      out += path[i];
      continue;
    }
    const hi = hex(path.charCodeAt(i + 1));
    const lo = hex(path.charCodeAt(i + 2));
    if (hi < 0 || lo < 0) return undefined;
    const code = hi * 16 + lo;
    if (code === 0 || code === 0x2f) return undefined;
    out += String.fromCharCode(code);
    i += 2;
  }
  return out;
}

/** Apache's ap_getparents: removes `.` and `..` segments. */
export function apacheGetParents(path: string): string {
  if (path.indexOf('.') < 0) return path;
  const absolute = path.startsWith('/');
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    const last = i === segments.length - 1;
    if (s === '.') {
      if (last) out.push('');
      continue;
    }
    if (s === '..') {
      if (out.length > (absolute ? 1 : 0)) out.pop();
      if (last) out.push('');
      continue;
    }
    out.push(s);
  }
  const joined = out.join('/');
  return absolute && !joined.startsWith('/') ? `/${joined}` : joined;
}
