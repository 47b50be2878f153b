// The on-disk life cycle of database generations under the vulndb directory:
//   <dir>/CURRENT           the name of the live generation (replaced by rename: atomic)
//   <dir>/gen-<stamp>/      a complete generation (records.jsonl, index.json, meta.json)
//   <dir>/.import-<stamp>/  an import in progress; never read, removed on failure or at open
// A new generation is built beside the live one and becomes live only by the CURRENT rename,
// so a crash or a failed import at any point leaves the old database whole.

import { mkdir, mkdtemp, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileSynced } from './generation-writer.js';

const CURRENT = 'CURRENT';
const GENERATION_PREFIX = 'gen-';
const IMPORT_PREFIX = '.import-';

/** Creates the private directory an import writes into. */
export async function createImportDir(dbDir: string): Promise<string> {
  await mkdir(dbDir, { recursive: true, mode: 0o700 });
  return mkdtemp(join(dbDir, IMPORT_PREFIX));
}

/** The live generation's directory, or null when nothing was ever imported. */
export async function currentGeneration(dbDir: string): Promise<string | null> {
  let name: string;
  try {
    name = (await readFile(join(dbDir, CURRENT), 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (!name.startsWith(GENERATION_PREFIX) || name.includes('/')) {
    throw new Error(`${join(dbDir, CURRENT)} names ${JSON.stringify(name)}, which is not a generation directory`);
  }
  return join(dbDir, name);
}

/**
 * Makes a finished import directory the live generation: rename it to its final name, then
 * replace CURRENT by writing CURRENT.tmp, fsyncing it and renaming it over CURRENT. Returns
 * the new generation's directory.
 */
export async function publishGeneration(dbDir: string, importDir: string): Promise<string> {
  const name = `${GENERATION_PREFIX}${new Date().toISOString().replace(/[-:.]/g, '')}-${importDir.slice(-6)}`;
  const genDir = join(dbDir, name);
  const tmp = join(dbDir, `${CURRENT}.tmp`);
  try {
    await rename(importDir, genDir);
    await writeFileSynced(tmp, name + '\n');
    await rename(tmp, join(dbDir, CURRENT));
  } catch (err) {
    // CURRENT still names the old generation: drop what this import made.
    await rm(importDir, { recursive: true, force: true });
    await rm(genDir, { recursive: true, force: true });
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dbDir);
  return genDir;
}

/** Removes every generation and import directory except `keep` (stale ones after a crash, the old one after a swap). */
export async function removeStale(dbDir: string, keep: string | null): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dbDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(GENERATION_PREFIX) && !name.startsWith(IMPORT_PREFIX)) continue;
    const path = join(dbDir, name);
    if (path === keep) continue;
    await rm(path, { recursive: true, force: true });
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
