#!/usr/bin/env node
// tsc compiles .ts only; modules that read data beside themselves (rule .conf files, .data lists,
// licence notices) find it under dist/ through this copy. Runs as part of `npm run build`.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIRS = ['daemon', 'cli', 'shared'];
const SKIP = new Set(['.ts', '.tsx', '.md']);

let copied = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (!SKIP.has(extname(name))) {
      cpSync(path, join(root, 'dist', relative(root, path)));
      copied++;
    }
  }
}
for (const dir of SOURCE_DIRS) walk(join(root, dir));
if (process.argv.includes('-v')) console.log(`copied ${copied} asset files into dist/`);
