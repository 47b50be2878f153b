// Builds the bytes go-ftw 2.3 sends for a stage (ftwhttp.BuildRequest), so the edge sees what
// Apache saw in CRS CI:
// - `encoded_request`: the base64-decoded bytes, nothing added;
// - otherwise "METHOD URI VERSION\r\n" (defaults GET, /, HTTP/1.1), the YAML headers sorted by
//   name (go-ftw builds its ordered header list from the YAML map that way), then what
//   autocompletion appends in this order: Content-Type: application/x-www-form-urlencoded (data
//   given, no Content-Type), Connection: close (none given), Content-Length (none given, and data
//   or a method matching go-ftw's `^POST|PUT|PATCH|DELETE$`, an unanchored alternation);
// - a form body that Go's url.QueryUnescape leaves unchanged is re-encoded pair by pair with
//   url.QueryEscape; a multipart body (Content-Type containing "multipart/form-data;") has every
//   LF replaced by CRLF, autocompletion or not (an existing CRLF becomes CR CR LF, as in go-ftw).
import { expandGoTemplate } from './go-ftw-template.js';
import type { GoFtwInput } from './go-ftw-suite.js';

const METHODS_WITH_BODY = /^POST|PUT|PATCH|DELETE$/;

/** Go's textproto.CanonicalMIMEHeaderKey for the token names the tests use. */
function canonical(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => dash + ch.toUpperCase());
}

/** Go's url.QueryUnescape, or undefined where Go returns an error (a bad %-escape). */
export function goQueryUnescape(text: string): string | undefined {
  const bytes: number[] = [];
  const src = Buffer.from(text, 'utf8');
  for (let i = 0; i < src.length; i++) {
    const b = src[i];
    if (b === 0x25) {
      const hex = src.subarray(i + 1, i + 3).toString('latin1');
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(b === 0x2b ? 0x20 : b);
  }
  return Buffer.from(bytes).toString('latin1');
}

/** Go's url.QueryEscape over the UTF-8 bytes of `text`. */
export function goQueryEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function encodeFormData(data: string): string {
  // go-ftw compares the unescaped text with the data as Go strings (bytes): compare in latin1.
  const latin1 = Buffer.from(data, 'utf8').toString('latin1');
  if (goQueryUnescape(data) !== latin1) return data;
  // go-ftw walks the '&'-separated tokens and stops when nothing remains, so a trailing '&' is dropped.
  const tokens = data.split('&');
  if (data.endsWith('&')) tokens.pop();
  return tokens
    .map((token) => {
      const eq = token.indexOf('=');
      return eq < 0 ? goQueryEscape(token) : `${goQueryEscape(token.slice(0, eq))}=${goQueryEscape(token.slice(eq + 1))}`;
    })
    .join('&');
}

export function buildGoFtwRequest(input: GoFtwInput): Buffer {
  if (input.encodedRequest !== undefined && input.encodedRequest !== '') return Buffer.from(input.encodedRequest, 'base64');
  const headers = [...input.headers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const has = (name: string) => headers.some(([n]) => canonical(n) === name);
  const valueOf = (name: string) => headers.filter(([n]) => canonical(n) === name).map(([, v]) => v);
  const method = input.method ?? 'GET';
  let data = input.data === undefined ? '' : expandGoTemplate(input.data);
  if (data !== '' && input.autocompleteHeaders) {
    if (!has('Content-Type')) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    if (valueOf('Content-Type').some((v) => v.toLowerCase() === 'application/x-www-form-urlencoded')) data = encodeFormData(data);
  }
  if (valueOf('Content-Type').some((v) => v.toLowerCase().includes('multipart/form-data;'))) data = data.replace(/\n/g, '\r\n');
  const body = Buffer.from(data, 'utf8');
  if (input.autocompleteHeaders) {
    if (!has('Connection')) headers.push(['Connection', 'close']);
    if (!has('Content-Length') && (body.length > 0 || METHODS_WITH_BODY.test(method))) headers.push(['Content-Length', String(body.length)]);
  }
  const head = `${method} ${input.uri ?? '/'} ${input.version ?? 'HTTP/1.1'}\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), body]);
}
