import { X509Certificate } from 'node:crypto';
import * as acme from 'acme-client';
import { checkAcmeDirectory } from './directory-check.js';

// One ACME order through acme-client: a new key and CSR for the site's hosts, HTTP-01 answered by
// the edge (publish/withdraw put the key authorization in the site's config, which the edge reads),
// the certificate chain back with its expiry and serial.

export interface OrderRequest {
  directory: string;
  email: string | null;
  /** The site's domain first, then its aliases: all on one certificate. */
  hosts: readonly string[];
  accountKey: Buffer;
  publish(token: string, keyAuthorization: string): Promise<void>;
  withdraw(token: string): Promise<void>;
}

export interface IssuedCertificate {
  cert: string;
  key: string;
  notAfter: Date;
  serial: string;
}

export async function issueCertificate(request: OrderRequest): Promise<IssuedCertificate> {
  await checkAcmeDirectory(request.directory);
  const client = new acme.Client({ directoryUrl: request.directory, accountKey: request.accountKey });
  await registerAccount(client, request.email);
  const [key, csr] = await acme.crypto.createCsr({ commonName: request.hosts[0], altNames: [...request.hosts] });
  const cert = await client.auto({
    csr,
    email: request.email ?? undefined,
    termsOfServiceAgreed: true,
    challengePriority: ['http-01'],
    // acme-client would first fetch the challenge itself over port 80 of the public name; the edge
    // may sit behind NAT or a test resolver the daemon does not use. The CA's validation is the proof.
    skipChallengeVerification: true,
    challengeCreateFn: async (_authz, challenge, keyAuthorization) => request.publish(challenge.token, keyAuthorization),
    challengeRemoveFn: async (_authz, challenge) => request.withdraw(challenge.token),
  });
  const leaf = new X509Certificate(cert);
  return { cert, key: key.toString(), notAfter: new Date(leaf.validTo), serial: leaf.serialNumber };
}

/**
 * The account, found or created before the order (auto() then skips registration). Left to auto(),
 * a renewal by an account that exists already, without a contact e-mail, sends the CA an account
 * "update" holding only termsOfServiceAgreed, which pebble refuses as an empty update ("Use
 * POST-as-GET to retrieve account data"): every renewal without --acme-email failed. So: look the
 * account up first (onlyReturnExisting, a POST-as-GET for an existing one), create it when that
 * fails, and update the contact only when there is one to set.
 */
async function registerAccount(client: acme.Client, email: string | null | undefined): Promise<void> {
  const contact = email ? { contact: [`mailto:${email}`] } : {};
  try {
    await client.createAccount({ onlyReturnExisting: true });
  } catch {
    await client.createAccount({ termsOfServiceAgreed: true, ...contact });
    return;
  }
  if (email) await client.updateAccount(contact);
}
