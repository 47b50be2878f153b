// Open append descriptors of the segments, and the committed size of every segment (the
// bytes that readers may see: a failed group is cut back to it).
//
// A segment has one descriptor per commit slot (groups in flight at once, see
// group-commit.ts), all opened together. Why not share one: Linux reports a writeback error
// to an fdatasync once per open file description (errseq), so two syncs in flight on one
// descriptor can see one error between them and the other returns success for data that
// never reached the disk. Each slot's sync on its own descriptor sees every error since that
// slot's previous sync, which finished before the slot was reused.
import fs from 'node:fs';
import path from 'node:path';

export interface SegmentHandle {
  /** One append descriptor per commit slot (same file). */
  fds: number[];
  file: string;
}

const call = <T>(fn: (cb: (err: NodeJS.ErrnoException | null, v: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));

export class SegmentFiles {
  private readonly handles = new Map<string, SegmentHandle>();
  /** file name -> committed bytes. */
  readonly committed = new Map<string, number>();

  constructor(
    readonly dir: string,
    /** Descriptors per segment: the commit pipeline's depth. */
    private readonly slots = 1,
  ) {}

  async handle(file: string): Promise<SegmentHandle> {
    const h = this.handles.get(file);
    if (h) return h;
    const full = path.join(this.dir, file);
    const existed = this.committed.has(file);
    const fds: number[] = [];
    const handle = { fds, file };
    try {
      for (let i = 0; i < this.slots; i++) fds.push(await call<number>((cb) => fs.open(full, 'a', 0o600, cb)));
      const fd = fds[0];
      const size = (await call<fs.Stats>((cb) => fs.fstat(fd, cb))).size;
      // Bytes beyond the committed size are a failed group that could not be cut: cut now.
      const committed = this.committed.get(file) ?? 0;
      if (size > committed) await call((cb) => fs.ftruncate(fd, committed, (err) => cb(err, undefined)));
      if (!existed) {
        this.committed.set(file, 0);
        await fsyncDirectory(this.dir);
      }
    } catch (err) {
      for (const fd of fds) fs.close(fd, () => undefined);
      throw err;
    }
    this.handles.set(file, handle);
    return handle;
  }

  /** Appends all of `data` with one writev (loops over short writes); returns the bytes written. */
  write(h: SegmentHandle, data: readonly Buffer[], slot = 0): Promise<number> {
    return writeAll(h.fds[slot], data);
  }

  sync(h: SegmentHandle, slot = 0): Promise<void> {
    return call((cb) => fs.fdatasync(h.fds[slot], (err) => cb(err, undefined)));
  }

  /** Cuts a segment back to its committed size after a failed group. */
  async rollback(h: SegmentHandle): Promise<void> {
    try {
      await call((cb) => fs.ftruncate(h.fds[0], this.committed.get(h.file) ?? 0, (err) => cb(err, undefined)));
      await call((cb) => fs.fdatasync(h.fds[0], (err) => cb(err, undefined)));
    } finally {
      // Re-open (and re-check the size) next time: the descriptor may be unusable.
      this.forget(h.file);
    }
  }

  forget(file: string): void {
    const h = this.handles.get(file);
    if (h) {
      this.handles.delete(file);
      for (const fd of h.fds) fs.close(fd, () => undefined);
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
