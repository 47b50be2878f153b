import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { DataPaths } from '../../shared/paths.js';
import { createLocalCa, createServerCertificate, type PemPair } from './certificates.js';

// The API listener's certificate: the operator's own (--tls-cert/--tls-key), or a local CA and a
// server certificate generated on first start under <data>/tls/ (keys 0600, directory 0700).
// A generated server certificate is renewed on start when it has less than 30 days left.

export interface ApiTls {
  cert: string;
  key: string;
  /** The CA a client should pin, or null for an operator certificate (its CA is the operator's business). */
  caFile: string | null;
  generated: boolean;
}

export class TlsSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlsSetupError';
  }
}

const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;

export async function ensureApiTls(paths: DataPaths, operator: { certFile?: string; keyFile?: string }, now = new Date()): Promise<ApiTls> {
  if (operator.certFile || operator.keyFile) return loadOperatorPair(operator.certFile, operator.keyFile);
  await mkdir(paths.tlsDir, { recursive: true, mode: 0o700 });
  await chmod(paths.tlsDir, 0o700);
  let ca = await readPair(paths.caCert, paths.caKey);
  let generated = false;
  if (!ca) {
    ca = createLocalCa(hostname(), now);
    await writePair(paths.caCert, paths.caKey, ca);
    generated = true;
  }
  let server = generated ? null : await readPair(paths.serverCert, paths.serverKey);
  if (server && !isUsable(server, ca, now)) server = null;
  if (!server) {
    server = createServerCertificate(ca, now);
    await writePair(paths.serverCert, paths.serverKey, server);
    generated = true;
  }
  return { cert: server.certPem, key: server.keyPem, caFile: paths.caCert, generated };
}

async function loadOperatorPair(certFile: string | undefined, keyFile: string | undefined): Promise<ApiTls> {
  if (!certFile || !keyFile) throw new TlsSetupError('--tls-cert and --tls-key must be given together');
  const cert = await readFile(certFile, 'utf8').catch((e: Error) => { throw new TlsSetupError(`cannot read --tls-cert ${certFile}: ${e.message}`); });
  const key = await readFile(keyFile, 'utf8').catch((e: Error) => { throw new TlsSetupError(`cannot read --tls-key ${keyFile}: ${e.message}`); });
  try {
    new X509Certificate(cert);
  } catch (error) {
    throw new TlsSetupError(`--tls-cert ${certFile} is not a PEM certificate: ${(error as Error).message}`);
  }
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new TlsSetupError(`--tls-key ${keyFile} does not fit --tls-cert ${certFile}: ${(error as Error).message}`);
  }
  return { cert, key, caFile: null, generated: false };
}

async function readPair(certFile: string, keyFile: string): Promise<PemPair | null> {
  try {
    return { certPem: await readFile(certFile, 'utf8'), keyPem: await readFile(keyFile, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new TlsSetupError(`cannot read ${certFile}: ${(error as Error).message}`);
  }
}

async function writePair(certFile: string, keyFile: string, pair: PemPair): Promise<void> {
  await writeFile(keyFile, pair.keyPem, { mode: 0o600 });
  await chmod(keyFile, 0o600);
  await writeFile(certFile, pair.certPem, { mode: 0o644 });
}

function isUsable(server: PemPair, ca: PemPair, now: Date): boolean {
  try {
    const cert = new X509Certificate(server.certPem);
    const caCert = new X509Certificate(ca.certPem);
    if (!cert.verify(caCert.publicKey)) return false;
    if (new Date(cert.validTo).getTime() - now.getTime() < RENEW_BEFORE_MS) return false;
    createSecureContext({ cert: server.certPem, key: server.keyPem });
    return true;
  } catch {
    return false;
  }
}
