// Open append descriptors of the segments, and the committed size of every segment (the
// bytes that readers may see: a failed group is cut back to it).
import fs from 'node:fs';
import path from 'node:path';

export interface SegmentHandle {
  fd: number;
  file: string;
}

const call = <T>(fn: (cb: (err: NodeJS.ErrnoException | null, v: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));

export class SegmentFiles {
  private readonly handles = new Map<string, SegmentHandle>();
  /** file name -> committed bytes. */
  readonly committed = new Map<string, number>();

  constructor(readonly dir: string) {}

  async handle(file: string): Promise<SegmentHandle> {
    const h = this.handles.get(file);
    if (h) return h;
    const full = path.join(this.dir, file);
    const existed = this.committed.has(file);
    const fd = await call<number>((cb) => fs.open(full, 'a', 0o600, cb));
    const handle = { fd, file };
    try {
      const size = (await call<fs.Stats>((cb) => fs.fstat(fd, cb))).size;
      // Bytes beyond the committed size are a failed group that could not be cut: cut now.
      const committed = this.committed.get(file) ?? 0;
      if (size > committed) await call((cb) => fs.ftruncate(fd, committed, (err) => cb(err, undefined)));
      if (!existed) {
        this.committed.set(file, 0);
        await fsyncDirectory(this.dir);
      }
    } catch (err) {
      fs.close(fd, () => undefined);
      throw err;
    }
    this.handles.set(file, handle);
    return handle;
  }

  /** Appends all of `data` with one writev (loops over short writes); returns the bytes written. */
  write(h: SegmentHandle, data: readonly Buffer[]): Promise<number> {
    return writeAll(h.fd, data);
  }

  sync(h: SegmentHandle): Promise<void> {
    return call((cb) => fs.fdatasync(h.fd, (err) => cb(err, undefined)));
  }

  /** Cuts a segment back to its committed size after a failed group. */
  async rollback(h: SegmentHandle): Promise<void> {
    try {
      await call((cb) => fs.ftruncate(h.fd, this.committed.get(h.file) ?? 0, (err) => cb(err, undefined)));
      await this.sync(h);
    } finally {
      // Re-open (and re-check the size) next time: the descriptor may be unusable.
      this.forget(h.file);
    }
  }

  forget(file: string): void {
    const h = this.handles.get(file);
    if (h) {
      this.handles.delete(file);
      fs.close(h.fd, () => undefined);
    }
  }

  closeAll(): void {
    for (const file of [...this.handles.keys()]) this.forget(file);
  }
}

export async function fsyncDirectory(dir: string): Promise<void> {
  const fd = await call<number>((cb) => fs.open(dir, 'r', cb));
  try {
    await call((cb) => fs.fsync(fd, (err) => cb(err, undefined)));
  } finally {
    fs.close(fd, () => undefined);
  }
}

/** Writes every buffer, in order, at the end of an append-mode descriptor; returns the byte count. */
export async function writeAll(fd: number, data: readonly Buffer[]): Promise<number> {
  let total = 0;
  for (const b of data) total += b.length;
  let done = await call<number>((cb) => fs.writev(fd, data as Buffer[], cb));
  if (done < total) {
    // A short write (rare: signals, quotas): finish the rest from one buffer.
    const rest = Buffer.concat(data as Buffer[]);
    while (done < total) done += await call<number>((cb) => fs.write(fd, rest, done, total - done, null, cb));
  }
  return total;
}
