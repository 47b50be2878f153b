// A binary file of named sections (typed arrays, strings, JSON), written to a temporary name,
// fsynced and renamed into place, so a snapshot on disk is always whole. Typed arrays load
// with one read each, without parsing: that is what makes start-up fast. Sections of 64 KiB
// and more are deflated (level 1, in the thread pool, so a periodic snapshot does not stall
// the event loop): URI text and sketches shrink 3-5x, which keeps the index small on disk.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';

const deflateRaw = promisify(zlib.deflateRaw);
const COMPRESS_FROM = 64 * 1024;

const MAGIC = 'WAFSNAP1';

export type SectionType = 'f64' | 'u32' | 'u8' | 'str' | 'json';
interface SectionInfo {
  type: SectionType;
  offset: number;
  /** Bytes in the file. */
  length: number;
  /** Set when the section is deflated: its inflated length. */
  raw?: number;
  /** CRC-32 of the bytes in the file (absent in files written before 2026-11-26 04:00: not checked). */
  crc?: number;
}

const pad8 = (n: number): number => (n + 7) & ~7;

/** A section's bytes as in the file: deflated when `raw` (its inflated length) is set. */
export interface StoredSection {
  name: string;
  type: SectionType;
  bytes: Buffer;
  raw?: number;
  crc?: number;
}

/**
 * The section's own bytes, inflated if it is stored deflated; 8-byte aligned. Checked against
 * their CRC first: raw deflate has no checksum, so a flipped byte could otherwise inflate to
 * the right length and give wrong answers instead of an error (~3 GB/s, a few ms per site).
 */
export function unpackSection(s: StoredSection): Buffer {
  if (s.crc !== undefined && zlib.crc32(s.bytes) !== s.crc) throw new Error(`snapshot: section ${s.name} fails its checksum`);
  if (s.raw === undefined) return s.bytes;
  // One output buffer of the known size (plus room, so zlib does not start a spare one):
  // the default 16 KiB chunks cost a list and a concatenating copy (~25% of the inflate).
  const out = zlib.inflateRawSync(s.bytes, { chunkSize: s.raw + 64 });
  if (out.length !== s.raw) throw new Error(`snapshot: section ${s.name} inflates to ${out.length} bytes, not ${s.raw}`);
  // Typed arrays need an aligned start.
  if (out.byteOffset % 8 === 0) return out;
  const aligned = Buffer.allocUnsafeSlow(out.length);
  out.copy(aligned);
  return aligned;
}

export class SnapshotWriter {
  /** `raw` set: the bytes are already deflated (a section written back as it was read). */
  private readonly parts: { name: string; type: SectionType; bytes: Uint8Array; raw?: number; crc?: number }[] = [];

  /** A section as a reader stored it, under `name`, written back without inflating it (with its checksum as read). */
  stored(name: string, s: StoredSection): void {
    this.parts.push({ name, type: s.type, bytes: s.bytes, raw: s.raw, crc: s.crc });
  }

  typed(name: string, a: Float64Array | Uint32Array | Uint8Array): void {
    const type: SectionType = a instanceof Float64Array ? 'f64' : a instanceof Uint32Array ? 'u32' : 'u8';
    this.parts.push({ name, type, bytes: new Uint8Array(a.buffer, a.byteOffset, a.byteLength) });
  }

  string(name: string, s: string): void {
    this.parts.push({ name, type: 'str', bytes: Buffer.from(s, 'utf8') });
  }

  json(name: string, v: unknown): void {
    this.parts.push({ name, type: 'json', bytes: Buffer.from(JSON.stringify(v), 'utf8') });
  }

  /** Writes the file atomically (temp file, fsync, rename, fsync of the directory). */
  async write(file: string): Promise<number> {
    const sections: Record<string, SectionInfo> = {};
    let at = 0;
    for (const p of this.parts) {
      let raw = p.raw;
      if (raw === undefined && p.bytes.byteLength >= COMPRESS_FROM) {
        raw = p.bytes.byteLength;
        p.bytes = await deflateRaw(p.bytes, { level: 1 });
      }
      const crc = p.crc ?? zlib.crc32(p.bytes);
      sections[p.name] = { type: p.type, offset: at, length: p.bytes.byteLength, ...(raw !== undefined ? { raw } : {}), crc };
      at = pad8(at + p.bytes.byteLength);
    }
    const header = Buffer.from(JSON.stringify({ sections }), 'utf8');
    const head = Buffer.alloc(pad8(16 + header.length));
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(header.length, 8);
    header.copy(head, 16);
    const tmp = `${file}.tmp-${process.pid}`;
    const fh = await fs.promises.open(tmp, 'w', 0o600);
    try {
      await fh.write(head);
      const zeros = new Uint8Array(8);
      for (const p of this.parts) {
        if (p.bytes.byteLength) await fh.write(p.bytes);
        const gap = pad8(p.bytes.byteLength) - p.bytes.byteLength;
        if (gap) await fh.write(zeros, 0, gap);
      }
      await fh.sync();
    } catch (err) {
      await fh.close().catch(() => undefined);
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    await fh.close();
    await fs.promises.rename(tmp, file);
    await fsyncDir(path.dirname(file));
    return head.length + at;
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  const fh = await fs.promises.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export class SnapshotReader {
  private constructor(
    private readonly fd: number,
    private readonly base: number,
    private readonly sections: Record<string, SectionInfo>,
  ) {}

  /** Opens a snapshot; null if the file does not exist. Throws if it is not a snapshot. */
  static open(file: string): SnapshotReader | null {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const head = Buffer.alloc(16);
      fs.readSync(fd, head, 0, 16, 0);
      if (head.toString('latin1', 0, 8) !== MAGIC) throw new Error(`${file}: not a snapshot file`);
      const len = head.readUInt32LE(8);
      const header = Buffer.alloc(len);
      if (fs.readSync(fd, header, 0, len, 16) !== len) throw new Error(`${file}: truncated header`);
      const { sections } = JSON.parse(header.toString('utf8')) as { sections: Record<string, SectionInfo> };
      return new SnapshotReader(fd, pad8(16 + len), sections);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  has(name: string): boolean {
    return name in this.sections;
  }

  /** A section as stored (still deflated if it was), to unpack later or write back as is. */
  stored(name: string, type: SectionType): StoredSection {
    const s = this.sections[name];
    if (!s || s.type !== type) throw new Error(`snapshot: no ${type} section ${name}`);
    const buf = Buffer.allocUnsafeSlow(s.length);
    let got = 0;
    while (got < s.length) {
      const n = fs.readSync(this.fd, buf, got, s.length - got, this.base + s.offset + got);
      if (n === 0) throw new Error(`snapshot: section ${name} is truncated`);
      got += n;
    }
    return { name, type, bytes: buf, raw: s.raw, crc: s.crc };
  }

  private bytes(name: string, type: SectionType): Buffer {
    return unpackSection(this.stored(name, type));
  }

  f64(name: string): Float64Array {
    const b = this.bytes(name, 'f64');
    return new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
  }

  u32(name: string): Uint32Array {
    const b = this.bytes(name, 'u32');
    return new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  }

  u8(name: string): Uint8Array {
    const b = this.bytes(name, 'u8');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  string(name: string): string {
    return this.bytes(name, 'str').toString('utf8');
  }

  json<T>(name: string): T {
    return JSON.parse(this.bytes(name, 'json').toString('utf8')) as T;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
