// Splits a SecRule action string the way ModSecurity v2's msre_parse_generic does:
// `name` or `name:value`, separated by commas; a value in single quotes may hold commas and
// `\'` / `\\` escapes; an unquoted value runs to the next comma or whitespace.

export interface ActionText {
  name: string;
  param: string | undefined;
}

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';
}

export function parseActionList(text: string): ActionText[] {
  const out: ActionText[] = [];
  let p = 0;
  const n = text.length;
  while (p < n) {
    while (p < n && isSpace(text[p])) p++;
    if (p >= n) break;
    const nameStart = p;
    while (p < n && text[p] !== ':' && text[p] !== ',' && text[p] !== '|' && !isSpace(text[p])) p++;
    const name = text.slice(nameStart, p);
    if (name === '') throw new Error(`empty action name near "${text.slice(p, p + 20)}"`);
    if (text[p] !== ':') {
      out.push({ name, param: undefined });
    } else {
      p++;
      while (p < n && isSpace(text[p])) p++;
      let value = '';
      if (text[p] === "'") {
        p++;
        for (;;) {
          if (p >= n) throw new Error(`missing closing quote in action ${name}`);
          const ch = text[p];
          if (ch === '\\' && (text[p + 1] === "'" || text[p + 1] === '\\')) {
            value += text[p + 1];
            p += 2;
          } else if (ch === "'") {
            p++;
            break;
          } else {
            value += ch;
            p++;
          }
        }
      } else {
        const start = p;
        while (p < n && text[p] !== ',' && text[p] !== '|' && !isSpace(text[p])) p++;
        value = text.slice(start, p);
      }
      out.push({ name, param: value });
    }
    while (p < n && (isSpace(text[p]) || text[p] === ',' || text[p] === '|')) p++;
  }
  return out;
}
