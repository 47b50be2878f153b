// A CRS release archive (coreruleset-<version>.tar.gz): read with node-tar rather than by spawning
// the system tar, so the checks below run on every entry before anything is written, the behaviour
// does not depend on which tar (GNU, busybox, bsdtar) a machine has, and errors come back as values
// with the entry's name instead of as text on a child's stderr.
// Every entry must lie under one top directory `coreruleset-<version>/` and be a plain file or a
// directory: absolute paths, `..` segments and links of any kind (a symlink or hard link could
// point outside the install) are refused, and so is an archive that is cut short.
import { once } from 'node:events';
import { Parser, extract, type ReadEntry } from 'tar';
import { CrsError } from './crs-error.js';

const TOP_DIR = /^coreruleset-(\d{1,3}\.\d{1,3}\.\d{1,3})$/;
const PLAIN_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);
/** A release is a few MB unpacked; these stop an archive that would fill the disk. */
const MAX_ENTRIES = 20_000;
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

export interface ArchiveListing {
  version: string;
  entries: number;
}

/** Reads the whole archive and checks every entry; throws a CrsError naming the first bad one. */
export async function inspectArchive(archive: Buffer, name: string): Promise<ArchiveListing> {
  let top: string | null = null;
  let entries = 0;
  let bytes = 0;
  let problem: CrsError | null = null;
  const parser = new Parser({ strict: true });
  parser.on('entry', (entry: ReadEntry) => {
    entry.resume();
    if (problem) return;
    entries++;
    bytes += entry.size ?? 0;
    const reason = entryProblem(entry, top);
    if (reason) {
      problem = new CrsError('crs_archive_unsafe', `${name}: entry "${entry.path}" ${reason}`, 'CRS release archives hold only files and directories under coreruleset-<version>/; get the archive from the CRS releases page');
      return;
    }
    top ??= entry.path.split('/')[0];
    if (entries > MAX_ENTRIES || bytes > MAX_UNPACKED_BYTES) {
      problem = new CrsError('crs_archive_unsafe', `${name} unpacks to more than ${MAX_ENTRIES} entries or ${MAX_UNPACKED_BYTES >> 20} MB, far more than a CRS release`);
    }
  });
  const ended = new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('end', resolve);
  });
  parser.end(archive);
  try {
    await ended;
  } catch (error) {
    throw damaged(name, error);
  }
  if (problem) throw problem;
  const match = top === null ? null : TOP_DIR.exec(top);
  if (!match || entries === 0) {
    throw new CrsError('crs_archive_invalid', `${name} holds no coreruleset-<version>/ directory`, 'is it a CRS release archive (coreruleset-<version>.tar.gz)?');
  }
  return { version: match[1], entries };
}

function entryProblem(entry: ReadEntry, top: string | null): string | null {
  if (!PLAIN_TYPES.has(entry.type)) return `is a ${entry.type}${entry.linkpath ? ` to ${entry.linkpath}` : ''}, not a file or directory`;
  const path = entry.path;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'is an absolute path';
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return 'leaves the archive\'s directory (..)';
  if (parts.length === 0 || !TOP_DIR.test(parts[0])) return 'is not under coreruleset-<version>/';
  if (top !== null && parts[0] !== top) return `is not under ${top}/ like the entries before it`;
  return null;
}

function damaged(name: string, error: unknown): CrsError {
  return new CrsError('crs_archive_invalid', `${name} is not a whole .tar.gz archive: ${(error as Error).message}`, 'the download was cut short or damaged; download it again');
}

/** Unpacks an archive inspectArchive accepted into `dir`, without its top directory. */
export async function unpackArchive(archive: Buffer, dir: string, name: string): Promise<void> {
  // node-tar refuses absolute and `..` paths itself as well (preservePaths off); strict turns any
  // warning into a failure, so nothing is silently skipped.
  const stream = extract({ cwd: dir, strip: 1, strict: true, preservePaths: false, filter: (_path, entry) => PLAIN_TYPES.has((entry as ReadEntry).type) });
  const finished = once(stream, 'close');
  const failed = once(stream, 'error').then(([error]) => { throw damaged(name, error); });
  stream.end(archive);
  await Promise.race([finished, failed]);
}
