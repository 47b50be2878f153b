import type { IncomingMessage } from 'node:http';
import type { EdgeLimits } from './edge-limits.js';

// What llhttp lets through but a front-line proxy must not (request smuggling and limits).
// llhttp (never run with insecureHTTPParser) already refuses with 400: Content-Length together
// with Transfer-Encoding, duplicate or malformed Content-Length, bad chunk sizes, obs-fold, bare
// LF or CR, `chunked` that is not the last coding. The gaps it leaves, closed here:
// - Transfer-Encoding in an HTTP/1.0 request (a 1.0 hop behind us would frame it by length): 400;
// - a coding other than plain `chunked` (`gzip, chunked`, also spread over several fields): 501,
//   as nginx and RFC 9112 6.1 say, since the origin would receive a body framed in a coding it was
//   never told about;
// - HTTP versions other than 1.0 and 1.1 (llhttp takes `HTTP/2.0` and 0.9 lines): 505 / 400;
// - two Host fields (which one routes, which one the origin sees?): 400, as nginx; none in an
//   HTTP/1.1 request: 400 (RFC 9112 3.2; node's requireHostHeader is off so the answer is ours);
// - a fragment (`#`) in the request target, which no request-target form carries (RFC 9112 3.2):
//   400, as Apache; origins and caches disagree on whether the path ends there;
// - a Host that is no host name, IPv4 or [IPv6] literal with an optional port (`localhost%00`,
//   control bytes, `/`, `@`, spaces): 400, as Apache; which site it routes to, and what the
//   origin makes of it, would be a guess;
// - the URI, header size and header count limits: 414 / 431.
// Every refusal closes the connection: after a framing doubt nothing later on it can be trusted.

export interface Refusal {
  readonly status: 400 | 414 | 431 | 501 | 505;
  /** Why, for the log and the tests; never sent to the client. */
  readonly reason: string;
}

/** A host name (letters, digits, `-`, `.`, `_`), an IPv4 address or an [IPv6] literal, with an
 *  optional port; empty is allowed (HTTP/1.0 and absolute-form targets). */
const HOST_VALUE = /^(?:[A-Za-z0-9._-]*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function protocolRefusal(req: IncomingMessage, limits: EdgeLimits): Refusal | null {
  if (req.httpVersionMajor !== 1) {
    return req.httpVersionMajor === 0
      ? { status: 400, reason: 'HTTP/0.9 request' }
      : { status: 505, reason: `HTTP version ${req.httpVersion} over HTTP/1 framing` };
  }
  const raw = req.rawHeaders;
  if (raw.length / 2 > limits.maxHeaders) return { status: 431, reason: `more than ${limits.maxHeaders} header fields` };
  let headerBytes = 0;
  let hosts = 0;
  let host = '';
  let transferEncoding: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    headerBytes += name.length + raw[i + 1].length + 4; // ": " and CRLF, as on the wire
    if (name.length === 4 && name.toLowerCase() === 'host') {
      hosts++;
      host = raw[i + 1];
    }
    // Several fields are one comma-separated list (RFC 9110 5.3): `identity` then `chunked` is `identity, chunked`.
    else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') transferEncoding = transferEncoding === null ? raw[i + 1] : `${transferEncoding}, ${raw[i + 1]}`;
  }
  if (headerBytes > limits.maxHeaderBytes) return { status: 431, reason: `header fields larger than ${limits.maxHeaderBytes} bytes` };
  if (hosts > 1) return { status: 400, reason: 'more than one Host field' };
  if (hosts === 0 && req.httpVersionMinor === 1) return { status: 400, reason: 'HTTP/1.1 request without Host' };
  if (hosts === 1 && !HOST_VALUE.test(host)) return { status: 400, reason: `Host ${JSON.stringify(host)} is not a host name or address` };
  if ((req.url ?? '').includes('#')) return { status: 400, reason: 'a fragment (#) in the request target' };
  if (transferEncoding !== null) {
    if (req.httpVersionMinor === 0) return { status: 400, reason: 'Transfer-Encoding in an HTTP/1.0 request' };
    if (transferEncoding.trim().toLowerCase() !== 'chunked') return { status: 501, reason: `Transfer-Encoding ${JSON.stringify(transferEncoding)} (only chunked is accepted)` };
  }
  // Checked last: a request can have a long URI and a smuggling problem; the smuggling answer wins.
  if ((req.url ?? '').length > limits.maxUriBytes) return { status: 414, reason: `request target longer than ${limits.maxUriBytes} bytes` };
  return null;
}
