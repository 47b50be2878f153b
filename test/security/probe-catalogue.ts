import { deflateSync, gzipSync } from 'node:zlib';

// The probe catalogue: data, one probe per way of hiding an attack from a WAF. Each probe is the
// raw bytes a client writes on one connection; every request head in it carries `X-Probe: <mark>`
// so whatever reaches the origin is attributed to its probe (the runner appends an end request
// with `Connection: close`, so a probe ends when the proxy closes, no sleep). Each carries a
// payload the rules block when it is sent plainly (the `control` probes prove that), hidden by
// one technique.

export type ProbeClass = 'framing' | 'encodings' | 'methods' | 'paths' | 'upgrades' | 'bodies' | 'headers';

export interface Probe {
  name: string;
  class: ProbeClass;
  /** The payload sent plainly: the proxy must refuse it (checks the payloads and the judge). */
  control?: boolean;
  /** Why the probe is not sent to nginx + ModSecurity (it would hold the suite), if so. */
  notForNginx?: string;
  /** Raw bytes for marker `m`. */
  bytes(m: string): Buffer;
}

export const HOST = 'example.test';
export const SQLI = "1' OR 1=1--";
export const XSS = '<script>alert(1)</script>';
/** The protected page: no client on loopback is allowed on it. */
export const PROTECTED = '/wp-admin/';
/** Bodies over this are the site's body-over-limit case (the edge and nginx are set up with it). */
export const BODY_LIMIT = 128 * 1024;

const SQLI_Q = "1%27%20OR%201%3D1--";
const XSS_Q = '%3Cscript%3Ealert(1)%3C%2Fscript%3E';

/** A request head (CRLF lines) with the probe's mark. */
function head(m: string, requestLine: string, fields: string[] = []): string {
  return `${[requestLine, ...fields, `X-Probe: ${m}`].join('\r\n')}\r\n\r\n`;
}

/** One complete request: GET target with Host and the mark. */
function get(m: string, target: string, fields: string[] = [`Host: ${HOST}`]): string {
  return head(m, `GET ${target} HTTP/1.1`, fields);
}

/** The path of the request the runner appends to every probe (it asks for Connection: close). */
export const END_PATH = '/__end';
export function endRequest(m: string): Buffer {
  return Buffer.from(`GET ${END_PATH} HTTP/1.1\r\nHost: ${HOST}\r\nX-Probe: ${m}\r\nConnection: close\r\n\r\n`, 'latin1');
}

/** A request with a body framed by Content-Length. */
function post(m: string, target: string, contentType: string | null, body: Buffer | string, extra: string[] = []): Buffer {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  const fields = [`Host: ${HOST}`, ...(contentType ? [`Content-Type: ${contentType}`] : []), `Content-Length: ${b.length}`, ...extra];
  return Buffer.concat([Buffer.from(head(m, `POST ${target} HTTP/1.1`, fields), 'latin1'), b]);
}

const raw = (s: string) => Buffer.from(s, 'latin1');
const probe = (name: string, cls: ProbeClass, bytes: (m: string) => Buffer | string, control = false): Probe =>
  ({ name, class: cls, control, bytes: (m) => { const b = bytes(m); return typeof b === 'string' ? raw(b) : b; } });

/** A request smuggled behind another: the attack, with the mark, closing the connection. */
const smuggled = (m: string) => get(m, `${PROTECTED}?q=${SQLI_Q}`);

function multipart(boundary: string, parts: Array<{ disposition: string; value: string; extra?: string }>, eol = '\r\n'): string {
  return parts.map((p) => `--${boundary}${eol}Content-Disposition: ${p.disposition}${eol}${p.extra ?? ''}${eol}${p.value}${eol}`).join('') + `--${boundary}--${eol}`;
}

function chunked(parts: string[]): string {
  return parts.map((p) => `${Buffer.byteLength(p, 'latin1').toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n';
}

const framing: Probe[] = [
  probe('pipelined attack behind a benign request', 'framing', (m) => get(m, '/ok', [`Host: ${HOST}`]) + smuggled(m)),
  probe('CL.TE: Content-Length and chunked, attack after the 0 chunk', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\nX-Probe: ${m}\r\n\r\n0\r\n\r\n` + smuggled(m)),
  probe('TE.CL: chunked body longer than its Content-Length', 'framing', (m) => {
    const inner = smuggled(m);
    return `POST / HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nX-Probe: ${m}\r\n\r\n${inner.length.toString(16)}\r\n${inner}\r\n0\r\n\r\n`;
  }),
  probe('two different Content-Length fields', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 0\r\nContent-Length: ${smuggled(m).length}\r\nX-Probe: ${m}\r\n\r\n` + smuggled(m)),
  probe('Content-Length with a plus sign', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: +${smuggled(m).length}\r\nX-Probe: ${m}\r\n\r\n` + smuggled(m)),
  probe('Transfer-Encoding with a space before the colon', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding : chunked\r\nContent-Length: 5\r\nX-Probe: ${m}\r\n\r\n0\r\n\r\n` + smuggled(m)),
  probe('Transfer-Encoding: xchunked', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: xchunked\r\nContent-Length: 5\r\nX-Probe: ${m}\r\n\r\n0\r\n\r\n` + smuggled(m)),
  probe('Transfer-Encoding: chunked, identity', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked, identity\r\nX-Probe: ${m}\r\n\r\n0\r\n\r\n` + smuggled(m)),
  probe('two Transfer-Encoding fields (chunked, then identity)', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\nX-Probe: ${m}\r\n\r\n0\r\n\r\n` + smuggled(m)),
  probe('Transfer-Encoding after a vertical tab', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding:\x0bchunked\r\nContent-Length: 5\r\nX-Probe: ${m}\r\n\r\n0\r\n\r\n` + smuggled(m)),
  probe('Transfer-Encoding hidden by obs-fold', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nX-Pad: a\r\n Transfer-Encoding: chunked\r\nContent-Length: 5\r\nX-Probe: ${m}\r\n\r\n0\r\n\r\n` + smuggled(m)),
  probe('chunked in an HTTP/1.0 request', 'framing', (m) =>
    `POST / HTTP/1.0\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked\r\nX-Probe: ${m}\r\n\r\n0\r\n\r\n` + smuggled(m)),
  probe('chunk size that overflows 64 bits', 'framing', (m) =>
    `POST / HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked\r\nX-Probe: ${m}\r\n\r\nfffffffffffffffff1\r\nq\r\n0\r\n\r\n` + smuggled(m)),
  probe('attack split over two chunks (with a chunk extension)', 'framing', (m) =>
    `POST /form HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nX-Probe: ${m}\r\n\r\n` +
    `5;ext=1\r\nq=1%2\r\n${(SQLI_Q.length - 3).toString(16)}\r\n${SQLI_Q.slice(3)}\r\n0\r\n\r\n`),
  probe('bare LF line ends', 'framing', (m) => `GET ${PROTECTED}?q=${SQLI_Q} HTTP/1.1\nHost: ${HOST}\nX-Probe: ${m}\n\n`),
  probe('GET whose body is a request', 'framing', (m) => {
    const inner = smuggled(m);
    return `GET / HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: ${inner.length}\r\nX-Probe: ${m}\r\n\r\n${inner}`;
  }),
  probe('attack in a chunked trailer field', 'framing', (m) =>
    head(m, 'POST /form HTTP/1.1', [`Host: ${HOST}`, 'Content-Type: application/x-www-form-urlencoded', 'Transfer-Encoding: chunked', 'Trailer: User-Agent']) +
    `3\r\na=1\r\n0\r\nUser-Agent: ${SQLI}\r\n\r\n`),
  probe('Expect: 100-continue, attack in the body', 'framing', (m) => post(m, '/form', 'application/x-www-form-urlencoded', `q=${SQLI_Q}`, ['Expect: 100-continue'])),
  probe('two spaces in the request line', 'framing', (m) => head(m, `GET  ${PROTECTED} HTTP/1.1`, [`Host: ${HOST}`])),
  probe('tab in the request line', 'framing', (m) => head(m, `GET\t${PROTECTED} HTTP/1.1`, [`Host: ${HOST}`])),
  probe('HTTP/2 preface on the HTTP/1 port', 'framing', (m) => `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n` + smuggled(m)),
];

const encodings: Probe[] = [
  probe('control: SQL injection in the query', 'encodings', (m) => get(m, `/search?q=${SQLI_Q}`), true),
  probe('control: XSS in the query', 'encodings', (m) => get(m, `/search?q=${XSS_Q}`), true),
  probe('double percent-encoding', 'encodings', (m) => get(m, '/search?q=1%2527%2520OR%25201%253D1--')),
  probe('%u encoding (IIS)', 'encodings', (m) => get(m, '/search?q=1%u0027%u0020OR%u00201=1--')),
  probe('overlong UTF-8 quote', 'encodings', (m) => get(m, '/search?q=1%c0%a7%20OR%201=1--')),
  probe('mixed-case hex and tag', 'encodings', (m) => get(m, '/search?q=%3cScRiPt%3EaLeRt(1)%3C%2FsCrIpT%3E')),
  probe('plus as space', 'encodings', (m) => get(m, "/search?q=1'+OR+1=1--")),
  probe('fullwidth angle brackets', 'encodings', (m) => get(m, '/search?q=%EF%BC%9Cscript%EF%BC%9Ealert(1)%EF%BC%9C/script%EF%BC%9E')),
  probe('NUL before the payload', 'encodings', (m) => get(m, `/search?q=%00${XSS_Q}`)),
  probe('tabs and comments instead of spaces', 'encodings', (m) => get(m, '/search?q=1%27/**/OR%091=1--')),
  probe('parameter split in two (ASP.NET joins with a comma)', 'encodings', (m) => get(m, '/search?q=1%27&q=%20OR%201%3D1--')),
  probe('semicolon as a separator', 'encodings', (m) => get(m, `/search?a=1;q=${SQLI_Q}`)),
  probe('payload in a parameter name', 'encodings', (m) => get(m, `/search?${SQLI_Q}=x`)),
  probe('payload in the path (router parameter)', 'encodings', (m) => get(m, `/search/${SQLI_Q}`)),
  probe('raw UTF-8 bytes in the target', 'encodings', (m) => get(m, '/search?q=\xef\xbc\x9cscript\xef\xbc\x9e')),
];

const methods: Probe[] = [
  probe('control: the protected page', 'methods', (m) => get(m, PROTECTED), true),
  probe('lower-case method', 'methods', (m) => head(m, `get ${PROTECTED} HTTP/1.1`, [`Host: ${HOST}`])),
  probe('unknown method', 'methods', (m) => head(m, `FOO ${PROTECTED} HTTP/1.1`, [`Host: ${HOST}`])),
  probe('WebDAV method on the protected page', 'methods', (m) => head(m, `PROPFIND ${PROTECTED} HTTP/1.1`, [`Host: ${HOST}`])),
  probe('HEAD with the attack', 'methods', (m) => head(m, `HEAD /search?q=${SQLI_Q} HTTP/1.1`, [`Host: ${HOST}`])),
  probe('CONNECT', 'methods', (m) => head(m, `CONNECT ${HOST}:80 HTTP/1.1`, [`Host: ${HOST}:80`]) + smuggled(m)),
  probe('absolute-form target', 'methods', (m) => get(m, `http://${HOST}${PROTECTED}`)),
  probe('absolute-form target naming another host', 'methods', (m) => get(m, `http://other.test${PROTECTED}`)),
  probe('absolute-form target with user info', 'methods', (m) => get(m, `http://user@${HOST}${PROTECTED}`)),
  probe('absolute-form target in upper case', 'methods', (m) => get(m, `HTTP://EXAMPLE.TEST${PROTECTED}`)),
  probe('absolute-form target with the attack', 'methods', (m) => get(m, `http://${HOST}/search?q=${SQLI_Q}`)),
  probe('GET with a form body', 'methods', (m) => Buffer.concat([
    raw(head(m, 'GET /search HTTP/1.1', [`Host: ${HOST}`, 'Content-Type: application/x-www-form-urlencoded', `Content-Length: ${2 + SQLI_Q.length}`])), raw(`q=${SQLI_Q}`)])),
  probe('method override header', 'methods', (m) => post(m, '/search', 'application/x-www-form-urlencoded', `q=${SQLI_Q}`, ['X-HTTP-Method-Override: GET'])),
];

const paths: Probe[] = [
  ['upper case', '/WP-ADMIN/'], ['an escaped letter', '/%77p-admin/'], ['an escaped hyphen', '/wp%2Dadmin/'],
  ['double slash', '//wp-admin/'], ['dot segment', '/./wp-admin/'], ['dot-dot segment', '/x/../wp-admin/'],
  ['escaped dot-dot', '/x/%2e%2e/wp-admin/'], ['escaped slashes around dot-dot', '/x%2f..%2fwp-admin/'],
  [';params', '/wp-admin;x=1/'], ['Tomcat ..;/', '/x/..;/wp-admin/'], ['NUL', '/wp-admin%00/'],
  ['trailing dot', '/wp-admin./'], ['trailing escaped space', '/wp-admin%20/'], ['double-escaped letter', '/%2577p-admin/'],
  ['overlong UTF-8 slash', '/wp-admin%c0%afx'], ['raw backslashes', '\\wp-admin\\'], ['escaped backslash', '/%5cwp-admin/'],
  ['escaped leading slash', '/%2fwp-admin/'], ['escaped trailing slash', '/wp-admin%2f'], ['half-escaped dot-dot', '/x/.%2e/wp-admin/'],
  ['overlong UTF-8 dot-dot', '/x/%c0%ae%c0%ae/wp-admin/'],
  ['escaped letter and an invalid UTF-8 tail', '/%77p-admin/%ff'], ['fragment in the target', '/wp-admin#x'], ['empty query', '/wp-admin?'], ['escaped letter in the middle', '/wp-%61dmin/'],
].map(([label, target]) => probe(`path: ${label}`, 'paths', (m) => get(m, target)));

const upgrades: Probe[] = [
  probe('WebSocket upgrade, attack pipelined behind it', 'upgrades', (m) =>
    head(m, 'GET / HTTP/1.1', [`Host: ${HOST}`, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']) + smuggled(m)),
  probe('h2c upgrade, attack pipelined behind it', 'upgrades', (m) =>
    head(m, 'GET / HTTP/1.1', [`Host: ${HOST}`, 'Connection: Upgrade, HTTP2-Settings', 'Upgrade: h2c', 'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA']) + smuggled(m)),
  probe('unknown protocol upgrade, attack pipelined behind it', 'upgrades', (m) =>
    head(m, 'OPTIONS / HTTP/1.1', [`Host: ${HOST}`, 'Connection: upgrade', 'Upgrade: foo/2']) + smuggled(m)),
  probe('HTTP/1.0 upgrade, attack pipelined behind it', 'upgrades', (m) =>
    head(m, 'GET / HTTP/1.0', [`Host: ${HOST}`, 'Connection: Upgrade, keep-alive', 'Upgrade: websocket']) + smuggled(m)),
  probe('upgrade request with the attack in its body', 'upgrades', (m) =>
    post(m, '/', 'application/x-www-form-urlencoded', `q=${SQLI_Q}`, ['Connection: Upgrade', 'Upgrade: websocket'])),
  probe('upgrade request with the attack in a chunked body', 'upgrades', (m) =>
    head(m, 'POST / HTTP/1.1', [`Host: ${HOST}`, 'Connection: Upgrade', 'Upgrade: websocket', 'Content-Type: application/x-www-form-urlencoded', 'Transfer-Encoding: chunked']) + chunked([`q=${SQLI_Q}`])),
  probe('WebSocket upgrade to the protected page', 'upgrades', (m) =>
    head(m, `GET ${PROTECTED} HTTP/1.1`, [`Host: ${HOST}`, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='])),
];

const FORM = 'application/x-www-form-urlencoded';
const bodies: Probe[] = [
  probe('control: SQL injection in a form', 'bodies', (m) => post(m, '/form', FORM, `q=${SQLI_Q}`), true),
  probe('JSON body', 'bodies', (m) => post(m, '/api', 'application/json', JSON.stringify({ q: SQLI }))),
  probe('JSON with \\u escapes', 'bodies', (m) => post(m, '/api', 'application/json', '{"q":"1\\u0027 OR 1\\u003d1--"}')),
  probe('JSON in UTF-16LE', 'bodies', (m) => post(m, '/api', 'application/json; charset=utf-16le', Buffer.from(JSON.stringify({ q: SQLI }), 'utf16le'))),
  probe('JSON nested in arrays', 'bodies', (m) => post(m, '/api', 'application/vnd.api+json', JSON.stringify({ a: [{ b: [SQLI] }] }))),
  probe('JSON with a duplicate key (the last one wins)', 'bodies', (m) => post(m, '/api', 'application/json', `{"q":"ok","q":${JSON.stringify(SQLI)}}`)),
  probe('payload as a JSON key', 'bodies', (m) => post(m, '/api', 'application/json', JSON.stringify({ [XSS]: 1 }))),
  probe('JSON nested 200 deep', 'bodies', (m) => post(m, '/api', 'application/json', '{"a":'.repeat(200) + JSON.stringify(SQLI) + '}'.repeat(200))),
  probe('attack after 1,100 form arguments', 'bodies', (m) =>
    post(m, '/form', FORM, Array.from({ length: 1100 }, (_, i) => `a${i}=1`).join('&') + `&q=${SQLI_Q}`)),
  probe('two Content-Type fields (text/plain, then form)', 'bodies', (m) => post(m, '/form', 'text/plain', `q=${SQLI_Q}`, [`Content-Type: ${FORM}`])),
  probe('multipart field', 'bodies', (m) => post(m, '/upload', 'multipart/form-data; boundary=xyz', multipart('xyz', [{ disposition: 'form-data; name="q"', value: SQLI }]))),
  probe('multipart with two boundary parameters', 'bodies', (m) =>
    post(m, '/upload', 'multipart/form-data; boundary=aaa; boundary=xyz', multipart('aaa', [{ disposition: 'form-data; name="q"', value: SQLI }]) + multipart('xyz', [{ disposition: 'form-data; name="ok"', value: 'fine' }]))),
  probe('multipart with a quoted boundary', 'bodies', (m) => post(m, '/upload', 'multipart/form-data; boundary="x y"', multipart('x y', [{ disposition: 'form-data; name="q"', value: SQLI }]))),
  probe('multipart with LF line ends', 'bodies', (m) => post(m, '/upload', 'multipart/form-data; boundary=xyz', multipart('xyz', [{ disposition: 'form-data; name="q"', value: SQLI }], '\n'))),
  probe('multipart field name carries the attack', 'bodies', (m) => post(m, '/upload', 'multipart/form-data; boundary=xyz', multipart('xyz', [{ disposition: `form-data; name="${XSS}"`, value: 'x' }]))),
  probe('multipart with the payload in a file name', 'bodies', (m) =>
    post(m, '/upload', 'multipart/form-data; boundary=xyz', multipart('xyz', [{ disposition: `form-data; name="f"; filename="${XSS}.txt"`, value: 'hello', extra: 'Content-Type: text/plain\r\n' }]))),
  probe('multipart without the closing boundary', 'bodies', (m) =>
    post(m, '/upload', 'multipart/form-data; boundary=xyz', `--xyz\r\nContent-Disposition: form-data; name="q"\r\n\r\n${SQLI}\r\n`)),
  probe('form body gzip-compressed (Content-Encoding)', 'bodies', (m) => post(m, '/form', FORM, gzipSync(`q=${SQLI_Q}`), ['Content-Encoding: gzip'])),
  probe('JSON body deflate-compressed (Content-Encoding)', 'bodies', (m) => post(m, '/api', 'application/json', deflateSync(JSON.stringify({ q: SQLI })), ['Content-Encoding: deflate'])),
  probe('form content type in upper case', 'bodies', (m) => post(m, '/form', 'APPLICATION/X-WWW-FORM-URLENCODED', `q=${SQLI_Q}`)),
  probe('form content type with odd parameters', 'bodies', (m) => post(m, '/form', 'application/x-www-form-urlencoded;;charset="utf-8";x', `q=${SQLI_Q}`)),
  probe('form body with no content type', 'bodies', (m) => post(m, '/form', null, `q=${SQLI_Q}`)),
  probe('XML body', 'bodies', (m) => post(m, '/xml', 'text/xml', `<?xml version="1.0"?><q>${SQLI}</q>`)),
  { ...probe('attack behind 100 KB of quotes (past the time budget)', 'bodies', (m) => post(m, '/form', FORM, `a=${"'".repeat(100_000)}&q=${SQLI_Q}`)),
    notForNginx: 'ModSecurity v3 gave no answer within 20 s and held its worker' },
  probe('attack behind padding over the body limit', 'bodies', (m) => post(m, '/form', FORM, `pad=${'a'.repeat(BODY_LIMIT + 1024)}&q=${SQLI_Q}`)),
];

const headers: Probe[] = [
  probe('attack in User-Agent', 'headers', (m) => get(m, '/', [`Host: ${HOST}`, `User-Agent: ${SQLI}`])),
  probe('attack in Referer', 'headers', (m) => get(m, '/', [`Host: ${HOST}`, `Referer: http://x.test/?q=${XSS}`])),
  probe('attack in a cookie', 'headers', (m) => get(m, '/', [`Host: ${HOST}`, `Cookie: session=${SQLI_Q}`])),
  probe('attack in a quoted cookie value', 'headers', (m) => get(m, '/', [`Host: ${HOST}`, `Cookie: q="${SQLI}"`])),
  probe('X-Original-URL names the protected page', 'headers', (m) => get(m, '/', [`Host: ${HOST}`, `X-Original-URL: ${PROTECTED}`])),
  probe('X-Rewrite-URL names the protected page', 'headers', (m) => get(m, '/', [`Host: ${HOST}`, `X-Rewrite-URL: ${PROTECTED}`])),
  probe('X-Original-URL carries the attack', 'headers', (m) => get(m, '/', [`Host: ${HOST}`, `X-Original-URL: /search?q=${SQLI_Q}`])),
  probe('X-Forwarded-For claims an allowed address', 'headers', (m) => get(m, PROTECTED, [`Host: ${HOST}`, 'X-Forwarded-For: 192.0.2.1'])),
  probe('Forwarded and X-Real-IP claim an allowed address', 'headers', (m) => get(m, PROTECTED, [`Host: ${HOST}`, 'Forwarded: for=192.0.2.1', 'X-Real-IP: 192.0.2.1'])),
  probe('Host in upper case', 'headers', (m) => get(m, PROTECTED, ['Host: EXAMPLE.TEST'])),
  probe('Host with a trailing dot', 'headers', (m) => get(m, PROTECTED, [`Host: ${HOST}.`])),
  probe('Host with a port', 'headers', (m) => get(m, PROTECTED, [`Host: ${HOST}:80`])),
  probe('two Host fields', 'headers', (m) => get(m, PROTECTED, ['Host: other.test', `Host: ${HOST}`])),
  probe('HTTP/1.0 without Host', 'headers', (m) => head(m, `GET ${PROTECTED} HTTP/1.0`, [])),
  probe('attack in a header folded over two lines', 'headers', (m) => get(m, '/', [`Host: ${HOST}`, "User-Agent: 1'", ' OR 1=1--'])),
];

export const CATALOGUE: readonly Probe[] = [...framing, ...encodings, ...methods, ...paths, ...upgrades, ...bodies, ...headers];
