import * as acme from 'acme-client';
import { readTrustedFile, replaceFile } from '../../lifecycle/safe-open.js';

// The ACME account key: one per daemon, <data>/tls/acme-account.key, created on the first order.
// Written like the API keys next to it (fresh file, 0600, renamed into place, never through a link):
// whoever holds it can revoke the daemon's certificates.

export async function acmeAccountKey(file: string): Promise<Buffer> {
  const existing = await readTrustedFile(file);
  if (existing !== null) return existing;
  const key = await acme.crypto.createPrivateKey();
  await replaceFile(file, key, 0o600);
  return key;
}
