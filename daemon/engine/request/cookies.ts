// ModSecurity v2 cookie parsing (version 0 cookies, the common case): the Cookie header is
// split on ';', each part trimmed of spaces and tabs, name=value with the value kept as sent
// (not URL-decoded; spaces and tabs around '=' dropped); a part without '=' is a name with an
// empty value. Several Cookie headers add up. Index scans, not a split and three regex
// replacements per cookie: this runs for every request with cookies.

function blank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

export function parseCookieHeader(header: string, out: Array<[string, string]>): void {
  let start = 0;
  while (start <= header.length) {
    let end = header.indexOf(';', start);
    if (end < 0) end = header.length;
    let from = start;
    let to = end;
    while (from < to && blank(header.charCodeAt(from))) from++;
    while (to > from && blank(header.charCodeAt(to - 1))) to--;
    if (from < to) {
      const eq = header.indexOf('=', from);
      if (eq < 0 || eq >= to) out.push([header.slice(from, to), '']);
      else {
        let nameEnd = eq;
        while (nameEnd > from && blank(header.charCodeAt(nameEnd - 1))) nameEnd--;
        let valueStart = eq + 1;
        while (valueStart < to && blank(header.charCodeAt(valueStart))) valueStart++;
        out.push([header.slice(from, nameEnd), header.slice(valueStart, to)]);
      }
    }
    start = end + 1;
  }
}
