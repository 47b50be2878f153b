// A throwaway CA and a server certificate for 127.0.0.1/localhost, for tests of the HTTPS client.
// Keys come from node:crypto (fast, native); node-forge only assembles and signs the certificates.
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

export interface TestPki {
  caCert: string;
  serverCert: string;
  serverKey: string;
}

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

function certificate(serial: string, subject: string, publicKey: forge.pki.PublicKey, extensions: object[]) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setExtensions(extensions);
  return cert;
}

export function makeTestPki(): TestPki {
  const ca = keyPair();
  const caCert = certificate('01', 'wafctl test CA', ca.publicKey, [
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  caCert.setIssuer(caCert.subject.attributes);
  caCert.sign(ca.privateKey, forge.md.sha256.create());

  const server = keyPair();
  const serverCert = certificate('02', 'localhost', server.publicKey, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
  ]);
  serverCert.setIssuer(caCert.subject.attributes);
  serverCert.sign(ca.privateKey, forge.md.sha256.create());

  return { caCert: forge.pki.certificateToPem(caCert), serverCert: forge.pki.certificateToPem(serverCert), serverKey: server.privatePem };
}
