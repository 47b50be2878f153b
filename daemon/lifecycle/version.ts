import { readFileSync } from 'node:fs';

// The version in package.json, found from this file whether it runs from source or from dist/.

function readVersion(): string {
  for (const relative of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'wafctl' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const VERSION = readVersion();
