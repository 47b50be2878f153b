import type { ServerResponse } from 'node:http';
import type { CompiledSite } from './snapshot.js';

// ACME HTTP-01 (RFC 8555 section 8.3): the CA fetches http://DOMAIN/.well-known/acme-challenge/TOKEN
// and expects the key authorization. The edge answers it for the site's open challenges before any
// WAF, bot challenge or redirect: a CA's validator is exactly the kind of client those would stop,
// and the answer is public by design (the token is random, the key authorization holds no secret).

const PREFIX = '/.well-known/acme-challenge/';

/** The key authorization to answer for this request target (origin-form, as sent: tokens are case-sensitive), or null. */
export function acmeKeyAuthorization(site: CompiledSite, uri: string): string | null {
  if (site.acmeChallenges.size === 0 || !uri.startsWith(PREFIX)) return null;
  const query = uri.indexOf('?');
  return site.acmeChallenges.get(uri.slice(PREFIX.length, query === -1 ? undefined : query)) ?? null;
}

export function answerAcmeChallenge(res: ServerResponse, keyAuthorization: string): void {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(keyAuthorization), 'cache-control': 'no-store' });
  res.end(keyAuthorization);
}
