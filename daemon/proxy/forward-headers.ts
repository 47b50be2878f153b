import type { IncomingHttpHeaders } from 'node:http';

// Step 9's header rules: hop-by-hop headers (RFC 9110 7.6.1, and any the Connection header
// names) stay on their hop; the original Host goes to the origin; X-Forwarded-For carries the
// chain (the incoming one only from a trusted proxy, else just the peer); X-Forwarded-Proto and
// X-Request-Id are the edge's.

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer',
  'upgrade', 'proxy-authorization', 'proxy-authenticate', 'http2-settings',
  // Not hop-by-hop, but node's server has already answered "100 Continue" to the client.
  'expect']);

export interface ForwardFacts {
  /** Socket peer address (the hop that connected to the edge). */
  peer: string;
  peerTrusted: boolean;
  secure: boolean;
  requestId: string;
}

export function originRequestHeaders(incoming: IncomingHttpHeaders, facts: ForwardFacts): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const named = connectionTokens(incoming.connection);
  for (const name in incoming) {
    if (HOP_BY_HOP.has(name) || (named && named.has(name))) continue;
    if (name === 'x-forwarded-for' || name === 'x-forwarded-proto' || name === 'x-request-id') continue;
    const value = incoming[name];
    if (value !== undefined) out[name] = value;
  }
  const xff = incoming['x-forwarded-for'];
  out['x-forwarded-for'] = facts.peerTrusted && xff ? `${Array.isArray(xff) ? xff.join(', ') : xff}, ${facts.peer}` : facts.peer;
  const proto = incoming['x-forwarded-proto'];
  out['x-forwarded-proto'] = facts.peerTrusted && typeof proto === 'string' && /^https?$/.test(proto) ? proto : facts.secure ? 'https' : 'http';
  out['x-request-id'] = facts.requestId;
  return out;
}

export function clientResponseHeaders(upstream: Record<string, string | string[] | undefined>, requestId: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const connection = upstream.connection;
  const named = connectionTokens(Array.isArray(connection) ? connection.join(',') : connection);
  for (const name in upstream) {
    if (HOP_BY_HOP.has(name) || (named && named.has(name))) continue;
    const value = upstream[name];
    if (value !== undefined) out[name] = value;
  }
  if (out['x-request-id'] === undefined) out['x-request-id'] = requestId;
  return out;
}

function connectionTokens(header: string | undefined): Set<string> | null {
  if (!header || header === 'keep-alive' || header === 'close') return null;
  return new Set(header.toLowerCase().split(',').map((t) => t.trim()).filter(Boolean));
}
