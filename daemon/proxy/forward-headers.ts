import type { IncomingHttpHeaders } from 'node:http';
import { util } from 'undici';

// Step 9's header rules: hop-by-hop headers (RFC 9110 7.6.1, and any the Connection header
// names) stay on their hop; the original Host goes to the origin; X-Forwarded-For carries the
// chain (the incoming one only from a trusted proxy, else just the peer); X-Forwarded-Proto and
// X-Request-Id are the edge's.
//
// Both directions produce flat [name, value, name, value, ...] lists, the shape undici's
// dispatch takes and res.writeHead accepts: no per-request header objects on the way out.
// Towards the client every response field stays its own line (Set-Cookie repeated).

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer',
  'upgrade', 'proxy-authorization', 'proxy-authenticate', 'http2-settings',
  // Not hop-by-hop, but node's server has already answered "100 Continue" to the client.
  'expect']);

/** Request fields the edge writes itself (incoming ones are read, never passed on as they are),
 *  and URL overrides it drops: IIS URL Rewrite, ASP.NET and some PHP and Java stacks route on
 *  X-Original-URL / X-Rewrite-URL instead of the request target, so a client could name a
 *  protected page or carry an attack in them past every check of the target (test/security).
 *  A client has no business sending them; an origin that needs them sets them itself. */
const EDGE_OWN = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-request-id', 'x-original-url', 'x-rewrite-url']);

export interface ForwardFacts {
  /** Socket peer address (the hop that connected to the edge). */
  peer: string;
  peerTrusted: boolean;
  secure: boolean;
  requestId: string;
  /** The body goes out as a buffer of this length: the incoming Content-Length is replaced by it. */
  bufferedLength?: number;
}

/**
 * req.headers -> the flat list for the origin request. req.headers rather than req.rawHeaders:
 * node's server builds that object for every HTTP/1.1 request anyway (it reads Host and Expect
 * from it), its names are lower case and internalized, so neither this loop nor undici's own
 * header table has to lower-case or hash a fresh name (measured: bench/proxy/README.md).
 */
export function originRequestHeaders(incoming: IncomingHttpHeaders, facts: ForwardFacts): string[] {
  const out: string[] = [];
  const named = connectionTokens(incoming.connection);
  const replaceLength = facts.bufferedLength !== undefined;
  for (const name in incoming) {
    if (HOP_BY_HOP.has(name) || EDGE_OWN.has(name) || (named && named.has(name))) continue;
    if (replaceLength && name === 'content-length') continue;
    const value = incoming[name];
    if (value === undefined) continue;
    if (typeof value === 'string') out.push(name, value);
    else for (const v of value) out.push(name, v); // set-cookie, the one field node keeps as an array
  }
  const xff = incoming['x-forwarded-for'];
  const proto = incoming['x-forwarded-proto'];
  out.push('x-forwarded-for', facts.peerTrusted && xff ? `${Array.isArray(xff) ? xff.join(', ') : xff}, ${facts.peer}` : facts.peer);
  out.push('x-forwarded-proto', facts.peerTrusted && (proto === 'http' || proto === 'https') ? proto : facts.secure ? 'https' : 'http');
  out.push('x-request-id', facts.requestId);
  if (replaceLength) out.push('content-length', String(facts.bufferedLength));
  return out;
}

/**
 * undici's raw response headers (name and value buffers) -> the flat list for res.writeHead,
 * names in lower case, values byte for byte (latin1), X-Request-Id added unless the origin set one.
 */
export function clientResponseHeaders(raw: ReadonlyArray<Buffer | string>, requestId: string): string[] {
  const out: string[] = [];
  let connection: string | undefined;
  let hasRequestId = false;
  for (let i = 0; i < raw.length; i += 2) {
    // Interned lower-case strings for well-known names: no allocation for most fields.
    const name = util.headerNameToString(raw[i]);
    const v = raw[i + 1];
    const value = typeof v === 'string' ? v : v.toString('latin1');
    if (HOP_BY_HOP.has(name)) {
      if (name === 'connection') connection = joined(connection, value);
      continue;
    }
    if (name === 'x-request-id') hasRequestId = true;
    out.push(name, value);
  }
  const named = connectionTokens(connection);
  const kept = named ? withoutNamed(out, named) : out;
  if (!hasRequestId) kept.push('x-request-id', requestId);
  return kept;
}

function joined(previous: string | undefined, value: string): string {
  return previous === undefined ? value : `${previous}, ${value}`;
}

/** Fields the Connection header names (RFC 9110 7.6.1); null for the usual keep-alive/close. */
function connectionTokens(header: string | undefined): Set<string> | null {
  if (!header || header === 'keep-alive' || header === 'close') return null;
  return new Set(header.toLowerCase().split(',').map((t) => t.trim()).filter(Boolean));
}

function withoutNamed(flat: string[], named: Set<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < flat.length; i += 2) if (!named.has(flat[i].toLowerCase())) out.push(flat[i], flat[i + 1]);
  return out;
}
