// Where `wafctl crs plugin add` reads a plugin from: a directory (a clone of the plugin's repository,
// or its plugins/ directory), a .tar.gz or .zip file, or an http(s) URL of one (a release archive).
// Every source becomes the same map of relative path -> bytes, with the same refusals as CRS release
// archives (release-archive.ts): plain files and directories only, no absolute or `..` paths, no
// links of any kind, and a size cap. Nothing is written here.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { posix, join, resolve } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import { CrsError } from './crs-error.js';
import { bundleFrom, MAX_PLUGIN_BYTES, type PluginBundle } from './plugin-bundle.js';
import { ZipError, zipEntries } from './zip-entries.js';

export interface FetchedPlugin extends PluginBundle {
  /** Where it came from, as the user gave it (a URL, or the absolute path). */
  source: string;
}

const UNSAFE_HINT = 'a plugin source holds only plain files and directories';
/** Deeper than any plugin repository's plugins/ directory; stops a walk of a wrong, huge tree. */
const MAX_DEPTH = 4;

export async function fetchPlugin(from: string): Promise<FetchedPlugin> {
  if (/^https?:\/\//i.test(from)) {
    const bytes = await download(from);
    return { ...bundleFrom(await archiveEntries(bytes, from), from), source: from };
  }
  const path = resolve(from);
  const info = await lstat(path).catch(() => {
    throw new CrsError('crs_plugin_source_not_found', `${path} does not exist`, 'give a plugin directory, a .tar.gz or .zip file, or an http(s) URL of one');
  });
  const entries = info.isDirectory() ? await directoryEntries(path) : await archiveEntries(await readFile(path), path);
  return { ...bundleFrom(entries, path), source: path };
}

async function directoryEntries(root: string): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  let total = 0;
  const walk = async (dir: string, relative: string, depth: number): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) await walk(join(dir, entry.name), path, depth + 1);
      } else if (entry.isFile()) {
        // Only files where plugin files can be are read: a repository's tests and docs stay unread.
        if (!inPluginsDir(path)) continue;
        const bytes = await readFile(join(dir, entry.name));
        total += bytes.length;
        if (total > MAX_PLUGIN_BYTES) throw new CrsError('crs_plugin_invalid', `${root} holds more than ${MAX_PLUGIN_BYTES} bytes of plugin files`);
        entries.set(path, bytes);
      } else if (inPluginsDir(path)) {
        throw new CrsError('crs_plugin_unsafe', `${root}: "${path}" is not a plain file`, UNSAFE_HINT);
      }
    }
  };
  await walk(root, '', 0);
  return entries;
}

const inPluginsDir = (path: string) => posix.dirname(path) === '.' || posix.basename(posix.dirname(path)) === 'plugins';

async function archiveEntries(bytes: Buffer, name: string): Promise<Map<string, Buffer>> {
  const isZip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  const isGzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (!isZip && !isGzip) {
    throw new CrsError('crs_plugin_invalid', `${name} is neither a directory, a .tar.gz nor a .zip`, 'give a plugin directory or its release archive');
  }
  const raw = isZip ? fromZip(bytes, name) : await fromTarGz(bytes, name);
  const entries = new Map<string, Buffer>();
  for (const entry of raw) {
    const problem = pathProblem(entry.path) ?? (entry.kind === 'link' ? 'is a link' : null);
    if (problem) throw new CrsError('crs_plugin_unsafe', `${name}: entry "${entry.path}" ${problem}`, UNSAFE_HINT);
    if (entry.kind === 'file') entries.set(posix.normalize(entry.path.replace(/^\.\//, '')), entry.bytes);
  }
  return entries;
}

function pathProblem(path: string): string | null {
  if (path.startsWith('/') || /^[a-z]:/i.test(path)) return 'is an absolute path';
  if (path.split(/[\\/]/).includes('..')) return 'leaves the archive (..)';
  return null;
}

function fromZip(bytes: Buffer, name: string) {
  try {
    return zipEntries(bytes, MAX_PLUGIN_BYTES);
  } catch (error) {
    if (error instanceof ZipError) throw new CrsError('crs_plugin_invalid', `${name}: ${error.message}`);
    throw new CrsError('crs_plugin_invalid', `${name} does not unpack: ${(error as Error).message}`);
  }
}

const TAR_KINDS: Record<string, 'file' | 'directory'> = { File: 'file', OldFile: 'file', ContiguousFile: 'file', Directory: 'directory' };

async function fromTarGz(bytes: Buffer, name: string): Promise<Array<{ path: string; kind: 'file' | 'directory' | 'link'; bytes: Buffer }>> {
  const entries: Array<{ path: string; kind: 'file' | 'directory' | 'link'; bytes: Buffer }> = [];
  const reads: Promise<void>[] = [];
  let total = 0;
  const parser = new Parser({ strict: true });
  parser.on('entry', (entry: ReadEntry) => {
    // GitHub's archives carry a global header with the commit id: not a file.
    if (entry.type === 'GlobalExtendedHeader' || entry.type === 'ExtendedHeader') { entry.resume(); return; }
    const kind = TAR_KINDS[entry.type] ?? 'link';
    const chunks: Buffer[] = [];
    total += entry.size ?? 0;
    if (total > MAX_PLUGIN_BYTES) parser.abort(new Error(`it unpacks to more than ${MAX_PLUGIN_BYTES} bytes`));
    entry.on('data', (chunk: Buffer) => chunks.push(chunk));
    reads.push(new Promise((done) => entry.on('end', () => { entries.push({ path: entry.path, kind, bytes: Buffer.concat(chunks) }); done(); })));
  });
  const finished = new Promise<void>((resolveDone, reject) => {
    parser.on('error', reject);
    parser.on('abort', reject);
    parser.on('end', resolveDone);
  });
  try {
    parser.end(bytes);
    await finished;
    await Promise.all(reads);
  } catch (error) {
    throw new CrsError('crs_plugin_invalid', `${name} does not unpack: ${(error as Error).message}`);
  }
  return entries;
}

async function download(url: string): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { 'user-agent': 'wafctl' }, redirect: 'follow' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    throw new CrsError('crs_plugin_unreachable', `cannot reach ${new URL(url).host}: ${cause?.code ?? (error as Error).message}`, 'without network access, copy the plugin over and give its directory or archive file');
  }
  if (!response.ok) throw new CrsError('crs_plugin_download_failed', `${url} answered ${response.status}`, 'check the URL (a release archive: .../archive/refs/tags/vX.Y.Z.tar.gz)');
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_PLUGIN_BYTES) throw new CrsError('crs_plugin_download_failed', `${url} is more than ${MAX_PLUGIN_BYTES} bytes, far more than a CRS plugin`);
  return bytes;
}
