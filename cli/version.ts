// The version wafctl reports: package.json's, found above this file whether it runs from cli/
// (tsx, tests) or from dist/cli/ (the built binary).
import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'wafctl' && pkg.version) return pkg.version;
    } catch {
      // not at this level; try the next one up
    }
  }
  return '0.0.0-unknown';
}
