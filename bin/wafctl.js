#!/usr/bin/env node
// The installed entry point: runs the compiled CLI (npm ci builds it through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
if (!existsSync(compiled)) {
  process.stderr.write('error: wafctl is not built: run `npm run build` in ' + fileURLToPath(new URL('..', import.meta.url)) + '\n');
  process.exit(1);
}
await import(compiled);
