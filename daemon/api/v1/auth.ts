import { createHash, timingSafeEqual } from 'node:crypto';
import { WafctlError } from '../../../shared/errors.js';
import type { StoredSite } from '../../../shared/schemas/site.js';

// X-Service-Key checks in the order of spec section 5 and 7: missing, format, unknown or replaced,
// then the site's state. The key is looked up by its SHA-256 (the store holds only hashes), and the
// stored hash is compared in constant time so no timing difference tells how much of it matched.

const KEY_FORMAT = /^[A-Za-z0-9]{64}$/;

type HeaderValue = string | string[] | undefined;

/**
 * The key a request carries: X-Service-Key (the spec) or X-AtomicEdge-Key (the older dialect the
 * Atomic Edge WordPress plugin still sends, README "The WordPress plugin's dialect"). Both present
 * and different is refused as invalid_api_key rather than picking one: a client that sends two
 * keys is confused, and answering for either site could act on the wrong one.
 */
export function presentedKey(headers: Record<string, HeaderValue>): HeaderValue {
  const spec = headers['x-service-key'];
  const dialect = headers['x-atomicedge-key'];
  if (isAbsent(dialect)) return spec;
  if (isAbsent(spec)) return dialect;
  if (first(spec) !== first(dialect)) {
    throw new WafctlError('invalid_api_key', 'X-Service-Key and X-AtomicEdge-Key carry different keys; send one key');
  }
  return spec;
}

const isAbsent = (value: HeaderValue): boolean => value === undefined || value === '';
const first = (value: HeaderValue): string | undefined => (Array.isArray(value) ? value[0] : value);

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function authenticateSiteKey(
  header: string | string[] | undefined,
  findByKeyHash: (hash: string) => StoredSite | undefined,
): StoredSite {
  if (header === undefined || header === '') throw new WafctlError('missing_api_key');
  const key = Array.isArray(header) ? header[0] : header;
  if (!KEY_FORMAT.test(key)) throw new WafctlError('invalid_api_key_format');
  const hash = sha256Hex(key);
  const site = findByKeyHash(hash);
  if (site === undefined || site.key_hash === null || !timingSafeEqual(Buffer.from(site.key_hash, 'hex'), Buffer.from(hash, 'hex'))) {
    throw new WafctlError('invalid_api_key');
  }
  if (site.status === 'deleted') throw new WafctlError('site_deleted');
  if (site.status === 'inactive') throw new WafctlError('site_inactive');
  return site;
}
