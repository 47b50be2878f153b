import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Site API keys and ingestion tokens: crypto-strong, unbiased, stored only as SHA-256 hex.
// Site key (spec 5): exactly 64 characters of [A-Za-z0-9].
// Ingestion token (our format): "wfi_" + 40 characters of [A-Za-z0-9] (238 bits), the prefix so
// that secret scanners and humans can tell it from a site key.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// 248 = 4 * 62: bytes at or above it are dropped, so every character is equally likely (no modulo bias).
const REJECT_FROM = 256 - (256 % ALPHABET.length);

export const SITE_KEY_LENGTH = 64;
export const INGEST_TOKEN_PREFIX = 'wfi_';
export const INGEST_TOKEN_BODY_LENGTH = 40;

const SITE_KEY_FORMAT = /^[A-Za-z0-9]{64}$/;
const INGEST_TOKEN_FORMAT = /^wfi_[A-Za-z0-9]{40}$/;

export function randomBase62(length: number, random: (size: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < length) {
    // Ask for a little more than needed: about 3% of bytes are rejected.
    for (const byte of random(length - out.length + 8)) {
      if (byte >= REJECT_FROM) continue;
      out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateSiteKey(): string {
  return randomBase62(SITE_KEY_LENGTH);
}

export function isSiteKeyFormat(key: string): boolean {
  return SITE_KEY_FORMAT.test(key);
}

export function generateIngestToken(): string {
  return INGEST_TOKEN_PREFIX + randomBase62(INGEST_TOKEN_BODY_LENGTH);
}

export function isIngestTokenFormat(token: string): boolean {
  return INGEST_TOKEN_FORMAT.test(token);
}

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time check of a clear secret against a stored SHA-256 hex digest. */
export function secretMatchesHash(secret: string, storedHex: string): boolean {
  const actual = createHash('sha256').update(secret, 'utf8').digest();
  const expected = Buffer.from(storedHex, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}
