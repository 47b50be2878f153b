// Is this archive the one its publisher released? Either a detached OpenPGP signature (the `.asc`
// CRS publishes beside each archive) by the pinned release key, or a SHA-256 the user got from a
// source they trust (`--sha256`, for a mirror). With neither, nothing is installed.
import { createHash } from 'node:crypto';
import * as openpgp from 'openpgp';
import { CrsError } from './crs-error.js';
import type { TrustedKey } from './release-key.js';

export const SHA256_PATTERN = /^[0-9a-f]{64}$/i;

export type ArchiveProof = { kind: 'sha256'; hex: string } | { kind: 'signature'; armored: string; key: () => TrustedKey };

/** How the archive was proven, for the install report. */
export type Verified = { kind: 'sha256'; sha256: string } | { kind: 'signature'; sha256: string; fingerprint: string };

export async function checkArchive(archive: Buffer, proof: ArchiveProof, name: string): Promise<Verified> {
  const sha256 = createHash('sha256').update(archive).digest('hex');
  if (proof.kind === 'sha256') {
    if (sha256 !== proof.hex.toLowerCase()) {
      throw new CrsError('crs_checksum_mismatch', `${name} has SHA-256 ${sha256}, not the ${proof.hex.toLowerCase()} given`, 'download it again, or check where the expected checksum came from');
    }
    return { kind: 'sha256', sha256 };
  }
  const trusted = proof.key();
  const key = await openpgp.readKey({ armoredKey: trusted.armored }).catch((error: Error) => {
    throw new CrsError('crs_key_invalid', `${trusted.source} holds no usable OpenPGP public key: ${error.message}`);
  });
  const fingerprint = key.getFingerprint().toUpperCase();
  if (trusted.fingerprint !== null && fingerprint !== trusted.fingerprint) {
    throw new CrsError('crs_key_invalid', `${trusted.source} has fingerprint ${fingerprint}, not CRS's ${trusted.fingerprint}`);
  }
  const signature = await openpgp.readSignature({ armoredSignature: proof.armored }).catch((error: Error) => {
    throw new CrsError('crs_signature_invalid', `the signature of ${name} is not an OpenPGP signature: ${error.message}`);
  });
  const message = await openpgp.createMessage({ binary: new Uint8Array(archive.buffer, archive.byteOffset, archive.byteLength) });
  try {
    // expectSigned: verify() itself throws unless a signature by this key checks out.
    await openpgp.verify({ message, signature, verificationKeys: key, expectSigned: true, format: 'binary' });
  } catch (error) {
    throw new CrsError('crs_signature_invalid', `${name} is not signed by the CRS release key ${fingerprint}: ${(error as Error).message}`, 'the archive or its .asc is damaged or not from CRS; download both again from the CRS releases page');
  }
  return { kind: 'signature', sha256, fingerprint };
}
