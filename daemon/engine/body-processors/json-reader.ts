// A strict JSON reader (RFC 8259, as yajl accepts it with ModSecurity's settings: no comments, one
// top-level value, no trailing garbage, strings must be valid UTF-8) that reports events in document
// order, like yajl's callbacks. Works on a byte string; string values come back as UTF-8 bytes and
// numbers as their source text. A handler returning false stops the parse.

export interface JsonHandler {
  scalar(value: string): boolean;
  key(name: string): void;
  startMap(): boolean;
  endMap(): void;
  startArray(): boolean;
  endArray(): void;
}

export class JsonSyntaxError extends Error {}
export class JsonCancelled extends Error {
  /** Where the parse stopped (bytes read). */
  constructor(readonly offset: number) {
    super('client cancelled parse');
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
/** The literal words and the argument value each gives (null is an empty value), in pairs. */
const LITERALS = ['true', 'true', 'false', 'false', 'null', ''];

export function readJson(text: string, handler: JsonHandler): void {
  let pos = 0;
  const n = text.length;
  const ws = () => {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) pos++;
      else break;
    }
  };
  const fail = (what: string): never => { throw new JsonSyntaxError(`${what} at offset ${pos}`); };
  const check = (ok: boolean) => { if (!ok) throw new JsonCancelled(pos); };

  const string = (): string => {
    pos++; // opening quote
    let out = '';
    let start = pos;
    while (true) {
      if (pos >= n) fail('parse error: premature EOF');
      const c = text.charCodeAt(pos);
      if (c === 0x22) break;
      if (c < 0x20) fail('lexical error: invalid character inside string');
      if (c === 0x5c) {
        out += text.slice(start, pos);
        const e = text[pos + 1];
        const simple = ({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e];
        if (simple !== undefined) { out += simple; pos += 2; }
        else if (e === 'u') {
          let cp = hex4(pos + 2);
          pos += 6;
          if (cp >= 0xd800 && cp <= 0xdbff && text[pos] === '\\' && text[pos + 1] === 'u') {
            const low = hex4(pos + 2);
            if (low >= 0xdc00 && low <= 0xdfff) { cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00); pos += 6; }
          }
          out += cp >= 0xd800 && cp <= 0xdfff ? '?' : Buffer.from(String.fromCodePoint(cp), 'utf8').toString('latin1');
        } else fail('lexical error: inside a string, \'\\\' occurs before a character which it may not');
        start = pos;
        continue;
      }
      pos++;
    }
    out += text.slice(start, pos);
    pos++;
    if (!isUtf8(out)) fail('lexical error: invalid bytes in UTF8 string');
    return out;
  };
  const hex4 = (at: number): number => {
    const h = text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('lexical error: invalid (non-hex) character occurs after \'\\u\' inside string');
    return parseInt(h, 16);
  };

  // Iterative, with an explicit stack: nesting depth is bounded by the caller's limit, not by the
  // JS call stack. Each frame is the container being filled: '{' or '['.
  const stack: string[] = [];
  const scalarOrOpen = (): void => {
    ws();
    if (pos >= n) fail('parse error: premature EOF');
    const c = text[pos];
    if (c === '{' || c === '[') {
      pos++;
      check(c === '{' ? handler.startMap() : handler.startArray());
      stack.push(c);
      ws();
      const close = c === '{' ? '}' : ']';
      if (text[pos] === close) {
        pos++;
        stack.pop();
        if (c === '{') handler.endMap(); else handler.endArray();
        afterValue();
      } else if (c === '{') {
        mapKey();
      }
      return;
    }
    if (c === '"') { check(handler.scalar(string())); afterValue(); return; }
    for (let k = 0; k < LITERALS.length; k += 2) {
      const word = LITERALS[k];
      if (text.startsWith(word, pos)) { pos += word.length; check(handler.scalar(LITERALS[k + 1])); afterValue(); return; }
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m) { pos += m[0].length; check(handler.scalar(m[0])); afterValue(); return; }
    fail('lexical error: invalid char in json text');
  };
  const mapKey = (): void => {
    ws();
    if (text[pos] !== '"') fail(pos >= n ? 'parse error: premature EOF' : 'parse error: invalid object key (must be a string)');
    handler.key(string());
    ws();
    if (text[pos] !== ':') fail(pos >= n ? 'parse error: premature EOF' : "parse error: object key and value must be separated by a colon (':')");
    pos++;
  };
  // After a complete value: close containers or expect the next member; sets `pending` when a
  // value is expected next.
  let pending = true;
  const afterValue = (): void => {
    pending = false;
    while (stack.length > 0) {
      ws();
      const top = stack[stack.length - 1];
      if (text[pos] === ',') {
        pos++;
        if (top === '{') mapKey();
        pending = true;
        return;
      }
      const close = top === '{' ? '}' : ']';
      if (text[pos] === close) {
        pos++;
        stack.pop();
        if (top === '{') handler.endMap(); else handler.endArray();
        continue;
      }
      if (pos >= n) fail('parse error: premature EOF');
      fail(top === '{' ? "parse error: after key and value, inside map, I expect ',' or '}'" : "parse error: after array element, I expect ',' or ']'");
    }
  };
  const value = (): void => {
    pending = true;
    while (pending) {
      pending = false;
      const depthBefore = stack.length;
      scalarOrOpen();
      // An opened, still-unfinished container expects a value next.
      if (stack.length > depthBefore) pending = true;
    }
  };

  value();
  ws();
  if (pos < n) fail('parse error: trailing garbage');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: string): boolean {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes.charCodeAt(i) >= 0x80) {
      try {
        UTF8.decode(Buffer.from(bytes, 'latin1'));
        return true;
      } catch {
        return false;
      }
    }
  }
  return true;
}
