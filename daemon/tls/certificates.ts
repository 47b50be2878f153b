import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

// X.509 for the API listener: a local CA and a server certificate signed by it. Keys come from
// node's crypto (native, fast); node-forge only assembles and signs the certificates. RSA because
// node-forge cannot sign with EC keys.

export interface PemPair {
  certPem: string;
  keyPem: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const CA_DAYS = 3650;
/** 825 days: the longest validity mainstream TLS clients accept for a server certificate. */
export const SERVER_DAYS = 825;

export const SERVER_HOSTS = { dns: ['localhost'], ips: ['127.0.0.1', '::1'] };

function rsaKeyPair(): { publicKey: forge.pki.PublicKey; privateKey: forge.pki.PrivateKey; keyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: forge.pki.publicKeyFromPem(publicKey), privateKey: forge.pki.privateKeyFromPem(privateKey), keyPem: privateKey };
}

function newCertificate(publicKey: forge.pki.PublicKey, days: number, now: Date): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // 16 random bytes with the top bit cleared: a positive serial, unique per certificate.
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = new Date(now.getTime() - 60_000); // tolerate a little clock skew
  cert.validity.notAfter = new Date(now.getTime() + days * DAY_MS);
  return cert;
}

export function createLocalCa(label: string, now = new Date()): PemPair {
  const keys = rsaKeyPair();
  const cert = newCertificate(keys.publicKey, CA_DAYS, now);
  const subject = [{ name: 'commonName', value: `wafctl local CA (${label})` }, { name: 'organizationName', value: 'wafctl' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.keyPem };
}

export function createServerCertificate(ca: PemPair, now = new Date()): PemPair {
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const keys = rsaKeyPair();
  const cert = newCertificate(keys.publicKey, SERVER_DAYS, now);
  cert.setSubject([{ name: 'commonName', value: 'localhost' }, { name: 'organizationName', value: 'wafctl' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        ...SERVER_HOSTS.dns.map((value) => ({ type: 2, value })),
        ...SERVER_HOSTS.ips.map((ip) => ({ type: 7, ip })),
      ],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.keyPem };
}
