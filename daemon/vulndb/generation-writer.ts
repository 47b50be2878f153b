// Writes one database generation into a fresh directory while an import streams:
//   records.jsonl  one stored record a line (served fields only; copyrights by reference)
//   index.json     per (type, slug): which records and ranges to test, plus record offsets
// Nothing here touches the live generation; publishing is `generation-store.ts`'s job.

import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { SoftwareRanges, StoredRecord } from './record.js';

export const RECORDS_FILE = 'records.jsonl';
export const INDEX_FILE = 'index.json';
export const META_FILE = 'meta.json';
export const INDEX_FORMAT = 1;

/** One candidate in the index: record number, software position, flat ranges [from, fromInc, to, toInc, ...]. */
export type IndexEntry = [recNo: number, softwareIndex: number, ranges: (string | number)[]];

export interface IndexFile {
  format: number;
  /** Flat [offset, length] pairs by record number, into records.jsonl. */
  records: number[];
  /** Distinct `copyrights` blocks; a stored line refers to one by position (`copyrights_ref`). */
  copyrights: Record<string, unknown>[];
  /** `${type}:${slug}` -> candidates. */
  slugs: Record<string, IndexEntry[]>;
}

// Small batches: lines waiting for a write would otherwise survive into the old generation of the heap.
const FLUSH_BYTES = 256 * 1024;

export class GenerationWriter {
  private readonly out: string[] = [];
  private outBytes = 0;
  private offset = 0;
  private readonly spans: number[] = [];
  private readonly byId = new Map<string, number>();
  private readonly dead = new Set<number>();
  private readonly slugs = new Map<string, IndexEntry[]>();
  private readonly copyrightIds = new Map<string, number>();
  private readonly copyrights: Record<string, unknown>[] = [];

  private constructor(
    readonly dir: string,
    private readonly file: FileHandle,
  ) {}

  static async create(dir: string): Promise<GenerationWriter> {
    return new GenerationWriter(dir, await open(join(dir, RECORDS_FILE), 'wx', 0o600));
  }

  /** Distinct record ids written; a repeated id replaces the earlier record (JSON: last wins). */
  get recordCount(): number {
    return this.byId.size;
  }

  get duplicateCount(): number {
    return this.dead.size;
  }

  /** Appends a record; awaits only when a buffered batch is flushed (backpressure for the stream). */
  async add(record: StoredRecord, ranges: SoftwareRanges[]): Promise<void> {
    const recNo = this.spans.length / 2;
    const previous = this.byId.get(record.id);
    if (previous !== undefined) this.dead.add(previous);
    this.byId.set(record.id, recNo);

    const { copyrights, ...rest } = record;
    const line = JSON.stringify({ ...rest, copyrights_ref: this.internCopyrights(copyrights) }) + '\n';
    const length = Buffer.byteLength(line);
    this.spans.push(this.offset, length);
    this.offset += length;
    this.out.push(line);
    this.outBytes += length;

    for (const [softwareIndex, sw] of ranges.entries()) {
      if (sw.ranges.length === 0) continue;
      const flat: (string | number)[] = [];
      for (const r of sw.ranges) flat.push(r.from, r.fromInclusive ? 1 : 0, r.to, r.toInclusive ? 1 : 0);
      const key = `${sw.type}:${sw.slug}`;
      let list = this.slugs.get(key);
      if (list === undefined) this.slugs.set(key, (list = []));
      list.push([recNo, softwareIndex, flat]);
    }
    if (this.outBytes >= FLUSH_BYTES) await this.flush();
  }

  /** Flushes, writes index.json and fsyncs both files. */
  async finish(): Promise<void> {
    await this.flush();
    await this.file.sync();
    await this.file.close();
    const slugs: Record<string, IndexEntry[]> = {};
    for (const [key, list] of this.slugs) {
      const live = this.dead.size === 0 ? list : list.filter(([recNo]) => !this.dead.has(recNo));
      if (live.length > 0) slugs[key] = live;
    }
    const index: IndexFile = { format: INDEX_FORMAT, records: this.spans, copyrights: this.copyrights, slugs };
    await writeFileSynced(join(this.dir, INDEX_FILE), JSON.stringify(index));
  }

  /** Closes the records file after a failed import; the caller removes the directory. */
  async abandon(): Promise<void> {
    await this.file.close().catch(() => undefined);
  }

  private internCopyrights(copyrights: Record<string, unknown>): number {
    // Feeds repeat a handful of blocks: compare with those first, allocation-free.
    for (let i = 0; i < this.copyrights.length && i < 16; i++) {
      if (sameJson(this.copyrights[i], copyrights)) return i;
    }
    const key = JSON.stringify(copyrights);
    let id = this.copyrightIds.get(key);
    if (id === undefined) {
      id = this.copyrights.length;
      this.copyrights.push(copyrights);
      this.copyrightIds.set(key, id);
    }
    return id;
  }

  private async flush(): Promise<void> {
    if (this.out.length === 0) return;
    const text = this.out.join('');
    this.out.length = 0;
    this.outBytes = 0;
    await this.file.write(text);
  }
}

/** Deep equality of two JSON values (key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Writes a whole small file and fsyncs it before returning. */
export async function writeFileSynced(path: string, text: string): Promise<void> {
  const fh = await open(path, 'w', 0o600);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
}
