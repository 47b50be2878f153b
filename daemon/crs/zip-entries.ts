// The files of a .zip archive (GitHub's "Source code (zip)" of a CRS plugin), read from its central
// directory with node:zlib: no dependency and no `unzip` binary for a format this small. Only what
// plugin archives use is read (stored and deflated entries); links, encrypted entries and ZIP64 are
// refused as values naming the entry, never written anywhere.
import { inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export interface ZipEntry {
  path: string;
  kind: 'file' | 'directory' | 'link';
  /** Unpacked bytes (empty for a directory or link). */
  bytes: Buffer;
}

export class ZipError extends Error {}

export function zipEntries(zip: Buffer, maxBytes: number): ZipEntry[] {
  const end = findEndOfDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new ZipError('its central directory is damaged');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const mode = zip.readUInt32LE(at + 38) >>> 16;
    const local = zip.readUInt32LE(at + 42);
    const path = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + skip;
    if ((mode & S_IFMT) === S_IFLNK) { entries.push({ path, kind: 'link', bytes: Buffer.alloc(0) }); continue; }
    if (path.endsWith('/')) { entries.push({ path: path.slice(0, -1), kind: 'directory', bytes: Buffer.alloc(0) }); continue; }
    if (flags & 1) throw new ZipError(`entry "${path}" is encrypted`);
    total += size;
    if (size === 0xffffffff || total > maxBytes) throw new ZipError(`it unpacks to more than ${maxBytes} bytes`);
    entries.push({ path, kind: 'file', bytes: unpack(zip, local, packed, size, method, path) });
  }
  return entries;
}

function findEndOfDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 64 KiB, at the very end.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new ZipError('it is not a zip archive (no end-of-directory record)');
}

function unpack(zip: Buffer, local: number, packed: number, size: number, method: number, path: string): Buffer {
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER) throw new ZipError(`entry "${path}" points outside the archive`);
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(start, start + packed);
  if (data.length !== packed) throw new ZipError(`entry "${path}" is cut short`);
  if (method !== 0 && method !== 8) throw new ZipError(`entry "${path}" uses compression method ${method}`);
  let bytes: Buffer;
  try {
    bytes = method === 0 ? Buffer.from(data) : inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
  } catch {
    // Corrupt deflate data, or more output than the entry states (node:zlib's RangeError).
    throw new ZipError(`entry "${path}" does not unpack to its stated size`);
  }
  if (bytes.length !== size) throw new ZipError(`entry "${path}" does not unpack to its stated size`);
  return bytes;
}
