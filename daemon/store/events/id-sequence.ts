// Event ids: one increasing sequence per data directory (shared by both kinds), independent
// of the clock. Ids are reserved in blocks: `<dir>/index/id-reserved` holds the highest id
// that may have been handed out, and is fsynced before any id above the previous
// reservation reaches a segment. After a restart the sequence resumes above it (skipping
// the unused rest of the block), so ids stay increasing even if every segment was deleted.
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDirectory } from './segment-files.js';

const BLOCK = 100_000;

export class IdSequence {
  private next: number;
  private reserved: number;

  private constructor(
    private readonly file: string,
    start: number,
  ) {
    this.next = start;
    this.reserved = start - 1;
  }

  /** Resumes above the stored reservation and above every id seen in the segments. */
  static open(indexDir: string, maxIdSeen: number): IdSequence {
    const file = path.join(indexDir, 'id-reserved');
    let stored = 0;
    try {
      const text = fs.readFileSync(file, 'utf8').trim();
      if (/^\d+$/.test(text)) stored = Number(text);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return new IdSequence(file, Math.max(stored, maxIdSeen) + 1);
  }

  /** The id the next take() starts with. */
  peek(): number {
    return this.next;
  }

  /** Hands out `n` consecutive ids; returns the first. */
  take(n: number): number {
    const first = this.next;
    this.next += n;
    return first;
  }

  get last(): number {
    return this.next - 1;
  }

  /**
   * On a clean close: stores the last id handed out instead of the block reservation, so
   * the next start resumes right above it without a gap.
   */
  async settle(): Promise<void> {
    const last = this.next - 1;
    if (last >= this.reserved) return;
    await this.store(last);
    this.reserved = last;
  }

  /** Makes sure every id up to `upTo` is covered by a durable reservation. */
  async reserve(upTo: number): Promise<void> {
    if (upTo <= this.reserved) return;
    const target = upTo + BLOCK;
    await this.store(target);
    this.reserved = target;
  }

  private async store(value: number): Promise<void> {
    const tmp = `${this.file}.tmp`;
    const fh = await fs.promises.open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(`${value}\n`);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, this.file);
    await fsyncDirectory(path.dirname(this.file));
  }
}
