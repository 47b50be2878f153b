// Builds the bytes an FTW 1.x stage sends, the way the Python ftw runner that CRS CI used
// built them: encoded_request (base64) or raw_request (with Python's unicode_escape) as
// given; otherwise "METHOD URI VERSION\r\n" + headers + "\r\n" + data, where data given as
// a list is joined with CRLF, a form body without %-escapes is re-encoded with
// urlencode(parse_qsl(data)), and Content-Type and Content-Length are filled in unless
// stop_magic is set. Host is NOT added: test 920280-1 sends a request without one on purpose,
// and the ftw version CRS CI ran did not add it either.

export interface FtwInput {
  raw_request?: string;
  encoded_request?: string;
  method?: string;
  uri?: string;
  version?: string;
  headers?: Record<string, string | number>;
  data?: string | string[];
  stop_magic?: boolean;
  dest_addr?: string;
}

/** Python's str.decode('unicode_escape') over the UTF-8 bytes of `text`, as UTF-8 bytes. */
export function pythonUnicodeEscape(text: string): Buffer {
  const src = Buffer.from(text, 'utf8').toString('latin1');
  let out = '';
  const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch !== '\\' || i + 1 >= src.length) {
      out += ch;
      continue;
    }
    const next = src[i + 1];
    if (next in simple) {
      out += simple[next];
      i++;
    } else if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(src.slice(i + 2, i + 4))) {
      out += String.fromCharCode(parseInt(src.slice(i + 2, i + 4), 16));
      i += 3;
    } else if (/[0-7]/.test(next)) {
      const m = /^[0-7]{1,3}/.exec(src.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(m, 8) & 0xff);
      i += m.length;
    } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(src.slice(i + 2, i + 6), 16));
      i += 5;
    } else {
      out += ch;
    }
  }
  return Buffer.from(out, 'utf8');
}

const QUOTE_SAFE = /[A-Za-z0-9_.\-~]/;

function quotePlus(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (ch === ' ') out += '+';
    else if (QUOTE_SAFE.test(ch)) out += ch;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function unquote(text: string): string {
  return text.replace(/(%[0-9a-fA-F]{2})+/g, (seq) => {
    const bytes = Buffer.from(seq.split('%').slice(1).map((h) => parseInt(h, 16)));
    return bytes.toString('utf8');
  });
}

/** urlencode(parse_qsl(data)) with Python 3's defaults (blank values dropped). */
function reencodeForm(data: string): string | undefined {
  const pairs: Array<[string, string]> = [];
  for (const part of data.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const value = part.slice(eq + 1);
    if (value === '') continue;
    pairs.push([unquote(part.slice(0, eq).replace(/\+/g, ' ')), unquote(value.replace(/\+/g, ' '))]);
  }
  if (pairs.length === 0) return undefined;
  return pairs.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&');
}

export function buildFtwRequest(input: FtwInput): Buffer {
  if (input.encoded_request !== undefined) return Buffer.from(input.encoded_request, 'base64');
  if (input.raw_request !== undefined) return pythonUnicodeEscape(input.raw_request);
  const magic = input.stop_magic !== true;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.headers ?? {})) headers[k] = String(v);
  let data = Array.isArray(input.data) ? input.data.join('\r\n') : input.data ?? '';
  if (data !== '') {
    if (!('Content-Type' in headers) && magic) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    if (headers['Content-Type'] === 'application/x-www-form-urlencoded' && magic && unquote(data) === data) {
      data = reencodeForm(data) ?? data;
    }
    if (!('Content-Length' in headers) && magic) headers['Content-Length'] = String([...data].length);
  }
  const method = input.method ?? 'GET';
  const uri = input.uri ?? '/';
  const version = input.version ?? 'HTTP/1.1';
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return Buffer.from(`${method} ${uri} ${version}\r\n${head}\r\n${data}`, 'utf8');
}
