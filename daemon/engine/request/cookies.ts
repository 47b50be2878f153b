// ModSecurity v2 cookie parsing (version 0 cookies, the common case): the Cookie header is
// split on ';', each part trimmed, name=value with the value kept as sent (not URL-decoded);
// a part without '=' is a name with an empty value. Several Cookie headers add up.

export function parseCookieHeader(header: string, out: Array<[string, string]>): void {
  for (const rawPart of header.split(';')) {
    const part = rawPart.replace(/^[ \t]+|[ \t]+$/g, '');
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) out.push([part, '']);
    else out.push([part.slice(0, eq).replace(/[ \t]+$/, ''), part.slice(eq + 1).replace(/^[ \t]+/, '')]);
  }
}
