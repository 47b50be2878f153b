// A CRS version on the command line (4.28.0, or v4.28.0 as the release tags spell it): checked
// before anything runs, so a typo is a usage error (exit 2), not a failed download.
import { InvalidArgumentError } from 'commander';

export function parseCrsVersion(value: string): string {
  const version = value.replace(/^v/, '');
  if (!/^\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(version)) throw new InvalidArgumentError('must be a CRS version such as 4.28.0.');
  return version;
}

export function parseSha256(value: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new InvalidArgumentError('must be a SHA-256 checksum: 64 hex digits.');
  return value.toLowerCase();
}
