import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { Logger } from 'pino';
import type { CaSharing } from '../tls/api-tls.js';
import type { PemPair } from '../tls/certificates.js';
import { sharedSecret } from './shared-secret.js';

// The API's local CA, one for the whole cluster (shared/design/scale-out.md, section 5.1): a client
// that pins the CA of one node (`wafctl connect`, a script with --cacert) can then reach the API of
// every node, each with a server certificate of its own signed by that CA. The first node to start
// stores its CA; the others adopt it (tls/api-tls.ts writes it over theirs and issues a new server
// certificate). Its key lives in PostgreSQL, so whoever can read wafctl_secrets can issue
// certificates these clients trust: the cluster README says so.

export function clusterCaSharing(url: string, logger: Logger): CaSharing {
  return async (mine) => {
    try {
      const stored = await sharedSecret(url, 'api_ca', Buffer.from(JSON.stringify({ cert: mine.certPem, key: mine.keyPem })));
      const shared = parseStoredCa(stored);
      if (shared.certPem !== mine.certPem) logger.info('API TLS: this node now uses the cluster\'s CA (from PostgreSQL)');
      return shared;
    } catch (error) {
      logger.warn({ err: error }, 'API TLS: the cluster\'s CA could not be read from PostgreSQL; this node keeps its own (cached) CA, which clients of another node may not trust');
      return mine;
    }
  };
}

/** The stored pair, checked: a CA certificate and the key that belongs to it. */
export function parseStoredCa(stored: Buffer): PemPair {
  const { cert, key } = JSON.parse(stored.toString('utf8')) as { cert?: unknown; key?: unknown };
  if (typeof cert !== 'string' || typeof key !== 'string') throw new Error('the stored API CA is not a {cert, key} pair');
  const x509 = new X509Certificate(cert);
  if (!x509.ca) throw new Error('the stored API CA certificate is not a CA');
  if (!x509.checkPrivateKey(createPrivateKey(key))) throw new Error('the stored API CA key does not belong to its certificate');
  return { certPem: cert, keyPem: key };
}
