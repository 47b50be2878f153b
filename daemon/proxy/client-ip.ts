import { compileIpSet, parseIp, type IpKey, type IpSet } from './ip-set.js';

// Step 2: who the client is. The socket peer, unless the peer is a trusted proxy
// (--trusted-proxy CIDR); then X-Forwarded-For is read right to left, skipping trusted hops,
// and the first untrusted address is the client (the left part of the header is whatever the
// client sent, so it is believed only as far as trusted proxies vouch for it).

export class ClientIpResolver {
  private readonly trusted: IpSet;

  constructor(trustedProxies: readonly string[] = []) {
    this.trusted = compileIpSet(trustedProxies);
  }

  /** Whether X-Forwarded-For / -Proto from this peer are believed. */
  isTrusted(peer: IpKey): boolean {
    return this.trusted.size > 0 && this.trusted.has(peer);
  }

  resolve(peer: IpKey, forwardedFor: string | string[] | undefined): IpKey {
    if (forwardedFor === undefined || !this.isTrusted(peer)) return peer;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseIp(stripPort(hops[i].trim()));
      if (!hop) break; // garbage: stop at the last address a trusted hop vouched for
      client = hop;
      if (!this.trusted.has(hop)) break;
    }
    return client;
  }
}

/** "1.2.3.4:5678" and "[2001:db8::1]:443" as some proxies write them. */
function stripPort(hop: string): string {
  if (hop.startsWith('[')) {
    const close = hop.indexOf(']');
    return close === -1 ? hop : hop.slice(1, close);
  }
  const colon = hop.indexOf(':');
  return colon !== -1 && colon === hop.lastIndexOf(':') ? hop.slice(0, colon) : hop;
}
