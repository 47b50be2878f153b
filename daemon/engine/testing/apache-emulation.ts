// The reference platform is Apache 2.4 (HttpProtocolOptions Strict) in front of
// ModSecurity v2. Apache refuses some requests before ModSecurity sees them; the CRS tests
// check those refusals through `status`. This reproduces the refusals the CRS 3.3.4 tests
// exercise, from the raw request head, so the harness answers as the reference did:
//   - a request line that is not `METHOD SP TARGET SP HTTP/x.y` with x >= 1 (0.9/0.8, "HTTP/2",
//     "1.1", "JUNK/1.0", leading whitespace): 400
//   - a request-target with a fragment or a ':' in the path, or one starting with '\': 400
//   - a Host header with characters a host name cannot have (`localhost%00`): 400
//   - a Content-Length that is not all digits: 400
//   - a header line with a bare CR, or LF-only line ends: 400
// A request line without any version (HTTP/0.9 "simple request") is answered the 0.9 way:
// the body only, no status line.

export type ApacheVerdict = { kind: 'accept' } | { kind: 'reject'; status: number; reason: string } | { kind: 'simple' };

const VALID_HOST = /^[A-Za-z0-9.\-_]*(:\d*)?$|^\[[0-9A-Fa-f:.]+\](:\d*)?$/;

export function apacheVerdict(head: string): ApacheVerdict {
  const firstEol = head.indexOf('\n');
  const rawLine = firstEol < 0 ? head : head.slice(0, firstEol);
  if (firstEol >= 0 && !rawLine.endsWith('\r')) return { kind: 'reject', status: 400, reason: 'bare LF line end' };
  const line = rawLine.replace(/\r$/, '');
  const words = line.split(' ');
  if (words.length === 2 || (words.length === 3 && words[2] === '')) return { kind: 'simple' };
  if (/^\s/.test(line) || words.length !== 3) return { kind: 'reject', status: 400, reason: 'malformed request line' };
  const [method, target, protocol] = words;
  if (!/^HTTP\/[1-9]\.\d$/.test(protocol)) return { kind: 'reject', status: 400, reason: `bad protocol ${protocol}` };
  const path = target.split('?')[0];
  if (method !== 'CONNECT' && (target.includes('#') || path.includes(':') || target.startsWith('\\'))) {
    return { kind: 'reject', status: 400, reason: 'invalid request target' };
  }
  const headerLines = head.slice(firstEol + 1).split('\r\n');
  for (const h of headerLines) {
    if (h.includes('\r')) return { kind: 'reject', status: 400, reason: 'bare CR in a header' };
    const colon = h.indexOf(':');
    if (colon <= 0) continue;
    const name = h.slice(0, colon).toLowerCase();
    const value = h.slice(colon + 1).trim();
    if (name === 'host' && !VALID_HOST.test(value)) return { kind: 'reject', status: 400, reason: 'bad Host' };
    if (name === 'content-length' && !/^\d+$/.test(value)) return { kind: 'reject', status: 400, reason: 'bad Content-Length' };
  }
  return { kind: 'accept' };
}

/** Apache drops Content-Length when Transfer-Encoding is present (RFC 7230 3.3.3). */
export function dropContentLengthIfChunked(headers: Array<[string, string]>): Array<[string, string]> {
  if (!headers.some(([n]) => n.toLowerCase() === 'transfer-encoding')) return headers;
  return headers.filter(([n]) => n.toLowerCase() !== 'content-length');
}
