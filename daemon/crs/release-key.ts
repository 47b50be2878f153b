// The key CRS signs its release archives with, pinned by fingerprint. The fingerprint is the one CRS
// publishes (coreruleset's SECURITY.md and its install docs: "Releases are signed using our GPG key
// (fingerprint: 3600 6F0E 0BA1 6783 2158 8211 38EE ACA1 AB8A 6E72)", key at
// https://coreruleset.org/security.asc). The armored key is data, kept at RELEASE_KEY_FILE; whatever
// is in that file is used only if its fingerprint is this one, so a swapped file cannot widen trust.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CrsError } from './crs-error.js';

export const CRS_RELEASE_FINGERPRINT = '36006F0E0BA167832158821138EEACA1AB8A6E72';

export const RELEASE_KEY_FILE = join(fileURLToPath(new URL('.', import.meta.url)), 'keys', 'coreruleset-release-key.asc');

/**
 * For tests only: the path of an armored public key trusted instead of CRS's (the tests sign their
 * archive with a key made at test time). Documented in man/wafctl-crs.1 as a test hook.
 */
export const TEST_KEY_ENV = 'WAFCTL_CRS_TEST_KEY';

export interface TrustedKey {
  armored: string;
  /** Upper-case hex the key must have; null for the test key, which is trusted as given. */
  fingerprint: string | null;
  source: string;
}

export function trustedReleaseKey(env: NodeJS.ProcessEnv): TrustedKey {
  const testKey = env[TEST_KEY_ENV];
  if (testKey) {
    return { armored: readKeyFile(testKey, `${TEST_KEY_ENV} names ${testKey}`), fingerprint: null, source: testKey };
  }
  if (!existsSync(RELEASE_KEY_FILE)) {
    throw new CrsError(
      'crs_key_missing',
      `CRS's release key (fingerprint ${CRS_RELEASE_FINGERPRINT}) is not bundled at ${RELEASE_KEY_FILE}, so no signature can be checked`,
      'give the archive\'s SHA-256 from a source you trust with --sha256 HEX, or save https://coreruleset.org/security.asc at that path',
    );
  }
  return { armored: readKeyFile(RELEASE_KEY_FILE, 'the bundled CRS release key'), fingerprint: CRS_RELEASE_FINGERPRINT, source: RELEASE_KEY_FILE };
}

function readKeyFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CrsError('crs_key_missing', `cannot read ${what}: ${(error as Error).message}`);
  }
}
