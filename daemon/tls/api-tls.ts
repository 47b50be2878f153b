import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { chmod, lstat, mkdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { DataPaths } from '../../shared/paths.js';
import { daemonUid, ownedEntryProblem } from '../lifecycle/file-trust.js';
import { readTrustedFile, replaceFile, UnsafeFileError } from '../lifecycle/safe-open.js';
import { createLocalCa, createServerCertificate, type PemPair } from './certificates.js';

// The API listener's certificate: the operator's own (--tls-cert/--tls-key), or a local CA and a
// server certificate generated on first start under <data>/tls/ (keys 0600, directory 0700).
// A generated server certificate is renewed on start when it has less than 30 days left.
// Nothing under tls/ is read or written through a symbolic link or trusted when another user
// controls it (security review M3): the CA key is what the CLI's trust rests on.

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

/** Gives the CA this node should use, from its own (cluster mode: the cluster's, daemon/cluster/shared-ca.ts). */
export type CaSharing = (mine: PemPair) => Promise<PemPair>;

export async function ensureApiTls(paths: DataPaths, operator: { certFile?: string; keyFile?: string }, now = new Date(), shareCa?: CaSharing): Promise<ApiTls> {
  if (operator.certFile || operator.keyFile) return loadOperatorPair(operator.certFile, operator.keyFile);
  await mkdir(paths.tlsDir, { recursive: true, mode: 0o700 });
  await refuseUntrustedDir(paths.tlsDir);
  await chmod(paths.tlsDir, 0o700);
  let ca = await readPair(paths.caCert, paths.caKey);
  let generated = false;
  if (!ca) {
    ca = createLocalCa(hostname(), now);
    await writePair(paths.caCert, paths.caKey, ca);
    generated = true;
  }
  if (shareCa !== undefined) {
    const shared = await shareCa(ca);
    if (shared.certPem !== ca.certPem || shared.keyPem !== ca.keyPem) {
      // The server certificate signed by the old CA no longer verifies (isUsable): made anew below.
      ca = shared;
      await writePair(paths.caCert, paths.caKey, ca);
    }
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

async function refuseUntrustedDir(dir: string): Promise<void> {
  const euid = daemonUid();
  if (euid === null) return;
  const problem = ownedEntryProblem(dir, await lstat(dir), euid);
  if (problem !== null) throw new TlsSetupError(problem);
}

/** The pair, or null when either file is missing (a new pair is then written). */
async function readPair(certFile: string, keyFile: string): Promise<PemPair | null> {
  const cert = await readTlsFile(certFile);
  if (cert === null) return null;
  const key = await readTlsFile(keyFile);
  return key === null ? null : { certPem: cert, keyPem: key };
}

async function readTlsFile(file: string): Promise<string | null> {
  try {
    return (await readTrustedFile(file))?.toString('utf8') ?? null;
  } catch (error) {
    if (error instanceof UnsafeFileError) throw new TlsSetupError(error.message);
    throw new TlsSetupError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

// Each file is written fresh (O_EXCL) and renamed into place: whatever stood at the name (an old
// key, a link) is replaced, never written through.
async function writePair(certFile: string, keyFile: string, pair: PemPair): Promise<void> {
  await replaceFile(keyFile, pair.keyPem, 0o600);
  await replaceFile(certFile, pair.certPem, 0o600); // 0600 like everything in the data dir (SECURITY.md, Files)
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
