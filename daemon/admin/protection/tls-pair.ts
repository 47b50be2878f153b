import { createPrivateKey, X509Certificate } from 'node:crypto';
import { WafctlError } from '../../../shared/errors.js';

// A site's own edge certificate: the chain must parse, its first certificate must belong to the key,
// and it must still be valid; otherwise 422 and the certificate in use stays.

export function checkTlsPair(pair: { cert: string; key: string }, now: Date): { cert: string; key: string } {
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(pair.cert);
  } catch (error) {
    throw new WafctlError('validation_error', `tls.cert: not a PEM certificate (${(error as Error).message})`);
  }
  let key;
  try {
    key = createPrivateKey(pair.key);
  } catch (error) {
    throw new WafctlError('validation_error', `tls.key: not a PEM private key, or it is encrypted (${(error as Error).message})`);
  }
  if (!leaf.checkPrivateKey(key)) throw new WafctlError('validation_error', `tls.key: does not match the certificate (${leaf.subject.replace(/\n/g, ', ')})`);
  if (new Date(leaf.validTo).getTime() < now.getTime()) throw new WafctlError('validation_error', `tls.cert: expired on ${leaf.validTo}`);
  return { cert: pair.cert, key: pair.key };
}
