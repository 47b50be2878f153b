// A generation opened for checking: the index compiled into memory (every range bound parsed
// once, at load), record lines read on demand from records.jsonl by offset. Reads are
// synchronous and small (a few KB per matched record, from the page cache), which keeps a
// check atomic with respect to a generation swap: no check is ever half on the old database.

import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INDEX_FILE, INDEX_FORMAT, META_FILE, RECORDS_FILE, type IndexFile } from './generation-writer.js';
import type { ImportMeta } from './import-meta.js';
import type { StoredRecord } from './record.js';
import { compareCompiled, compileVersion, type CompiledVersion } from './version.js';

export interface CompiledRange {
  /** null: unbounded (`*`). */
  from: CompiledVersion | null;
  fromInclusive: boolean;
  to: CompiledVersion | null;
  toInclusive: boolean;
}

export interface Candidate {
  recNo: number;
  softwareIndex: number;
  ranges: CompiledRange[];
}

const RECORD_CACHE_SIZE = 4096;

export class LoadedGeneration {
  private readonly cache = new Map<number, StoredRecord>();
  private fd: number | null;

  private constructor(
    readonly dir: string,
    readonly meta: ImportMeta,
    private readonly spans: number[],
    private readonly copyrights: Record<string, unknown>[],
    private readonly candidatesByKey: Map<string, Candidate[]>,
  ) {
    this.fd = openSync(join(dir, RECORDS_FILE), 'r');
  }

  static async load(dir: string): Promise<LoadedGeneration> {
    const [indexText, metaText] = await Promise.all([
      readFile(join(dir, INDEX_FILE), 'utf8'),
      readFile(join(dir, META_FILE), 'utf8'),
    ]);
    const index = JSON.parse(indexText) as IndexFile;
    if (index.format !== INDEX_FORMAT) {
      throw new Error(`${join(dir, INDEX_FILE)} has format ${index.format}; this daemon reads format ${INDEX_FORMAT}: re-import the feed`);
    }
    const meta = JSON.parse(metaText) as ImportMeta;
    return new LoadedGeneration(dir, meta, index.records, index.copyrights, compileIndex(index));
  }

  /** The records to test for a (type, slug); the slug must already be normalised. */
  candidates(type: string, slug: string): readonly Candidate[] {
    return this.candidatesByKey.get(`${type}:${slug}`) ?? [];
  }

  /** Reads and parses one stored record (cached), with its copyrights block restored. */
  record(recNo: number): StoredRecord {
    const hit = this.cache.get(recNo);
    if (hit !== undefined) return hit;
    if (this.fd === null) throw new Error('the vulnerability database generation is closed');
    const offset = this.spans[recNo * 2];
    const length = this.spans[recNo * 2 + 1];
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buf, got, length - got, offset + got);
      if (n === 0) throw new Error(`${join(this.dir, RECORDS_FILE)} is shorter than its index says`);
      got += n;
    }
    const { copyrights_ref, ...rest } = JSON.parse(buf.toString('utf8')) as Omit<StoredRecord, 'copyrights'> & { copyrights_ref: number };
    const record: StoredRecord = { ...rest, copyrights: this.copyrights[copyrights_ref] ?? {} };
    this.cache.set(recNo, record);
    // First in, first out: cheaper than LRU bookkeeping on every hit, and as good for this load.
    if (this.cache.size > RECORD_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as number);
    return record;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.cache.clear();
  }
}

/** True when the version lies in the range (README §3.2). */
export function rangeContains(range: CompiledRange, v: CompiledVersion): boolean {
  if (range.from !== null) {
    const c = compareCompiled(v, range.from);
    if (c < 0 || (c === 0 && !range.fromInclusive)) return false;
  }
  if (range.to !== null) {
    const c = compareCompiled(v, range.to);
    if (c > 0 || (c === 0 && !range.toInclusive)) return false;
  }
  return true;
}

/** Compiles every bound once; identical bound strings share one compiled version. */
function compileIndex(index: IndexFile): Map<string, Candidate[]> {
  const compiled = new Map<string, CompiledVersion>();
  const bound = (text: string): CompiledVersion | null => {
    if (text === '*') return null;
    let v = compiled.get(text);
    if (v === undefined) compiled.set(text, (v = compileVersion(text)));
    return v;
  };
  const out = new Map<string, Candidate[]>();
  for (const [key, entries] of Object.entries(index.slugs)) {
    out.set(
      key,
      entries.map(([recNo, softwareIndex, flat]) => {
        const ranges: CompiledRange[] = [];
        for (let i = 0; i < flat.length; i += 4) {
          ranges.push({
            from: bound(flat[i] as string),
            fromInclusive: flat[i + 1] === 1,
            to: bound(flat[i + 2] as string),
            toInclusive: flat[i + 3] === 1,
          });
        }
        return { recNo, softwareIndex, ranges };
      }),
    );
  }
  return out;
}
