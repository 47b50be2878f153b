import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Files the edge reads at load that are not TypeScript (the scanner User-Agent list).
// tsc does not copy them to dist/, so from dist/daemon/proxy/ they are found in the source
// tree's daemon/proxy/ (which the package ships).

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SOURCE_DIR = HERE.replace(/[\\/]dist([\\/]daemon[\\/]proxy[\\/]?)$/, '$1');

export function proxyAsset(relative: string): string {
  const beside = join(HERE, relative);
  return existsSync(beside) ? beside : join(SOURCE_DIR, relative);
}
