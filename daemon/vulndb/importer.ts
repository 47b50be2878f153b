// The streaming import: feed bytes -> sha256 + splitter -> one record at a time validated ->
// a new generation directory. Memory holds one record plus the index being built, never the
// feed. On any failure the import directory is removed and the live database is untouched;
// publishing the finished directory is the caller's (VulnDb's) step.

import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LatestDefiantBlock } from './attribution.js';
import { FeedSplitter, FeedSyntaxError } from './feed-splitter.js';
import type { OpenedFeed } from './feed-source.js';
import { GenerationWriter, META_FILE, writeFileSynced } from './generation-writer.js';
import { createImportDir } from './generation-store.js';
import type { ImportMeta } from './import-meta.js';
import { validateRecord, type SoftwareRanges, type StoredRecord } from './record.js';
import { VulnDbError } from './vulndb-error.js';

export interface SkippedRecord {
  /** The record's key in the feed. */
  key: string;
  reason: string;
}

export interface ImportOptions {
  signal?: AbortSignal;
  /** Called for every skipped record ("log it and count it"). */
  onSkip?: (skipped: SkippedRecord) => void;
  /** Per-record byte ceiling (default 16 MiB). */
  maxRecordBytes?: number;
  /** Clock for `imported_at` (tests). */
  now?: () => Date;
}

export interface BuiltGeneration {
  importDir: string;
  meta: ImportMeta;
  /** The first skipped records with their reasons (at most SKIP_SAMPLE_SIZE). */
  skippedSample: SkippedRecord[];
}

export const SKIP_SAMPLE_SIZE = 20;

export async function buildGeneration(dbDir: string, feed: OpenedFeed, opts: ImportOptions = {}): Promise<BuiltGeneration> {
  const started = performance.now();
  const importDir = await createImportDir(dbDir).catch(async (err: unknown) => {
    await feed.cancel();
    throw err;
  });
  let writer: GenerationWriter | null = null;
  try {
    writer = await GenerationWriter.create(importDir);
    const hash = createHash('sha256');
    const defiant = new LatestDefiantBlock();
    const skippedSample: SkippedRecord[] = [];
    const pending: { record: StoredRecord; ranges: SoftwareRanges[] }[] = [];
    let skipped = 0;
    let bytes = 0;
    let production = false;

    const splitter = new FeedSplitter((key, value) => {
      const verdict = validateRecord(value);
      if (!verdict.ok) {
        skipped++;
        const entry = { key, reason: verdict.reason };
        if (skippedSample.length < SKIP_SAMPLE_SIZE) skippedSample.push(entry);
        opts.onSkip?.(entry);
        return;
      }
      production ||= verdict.hasDescription;
      defiant.offer(verdict.record.updated, verdict.record.copyrights);
      pending.push({ record: verdict.record, ranges: verdict.ranges });
    }, opts.maxRecordBytes);

    for await (const chunk of feed.stream) {
      if (opts.signal?.aborted) throw new VulnDbError('aborted', 'the import was aborted');
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      hash.update(buf);
      bytes += buf.length;
      splitter.push(buf);
      for (const { record, ranges } of pending) await writer.add(record, ranges);
      pending.length = 0;
    }
    if (opts.signal?.aborted) throw new VulnDbError('aborted', 'the import was aborted');
    splitter.end();

    if (writer.recordCount === 0) {
      const why = skipped > 0 ? `all ${skipped} records failed validation (first: ${skippedSample[0]?.reason})` : 'it has no records';
      throw new VulnDbError('no_valid_records', `the feed has no valid record: ${why}`);
    }
    await writer.finish();
    const meta: ImportMeta = {
      source: feed.source,
      source_kind: feed.kind,
      variant: { api: feed.apiHint, feed: feed.feedHint ?? (production ? 'production' : 'scanner') },
      imported_at: (opts.now?.() ?? new Date()).toISOString(),
      records: writer.recordCount,
      skipped,
      duplicates: writer.duplicateCount,
      sha256: hash.digest('hex'),
      bytes,
      duration_ms: Math.round(performance.now() - started),
      defiant: defiant.value,
      etag: feed.etag,
      last_modified: feed.lastModified,
    };
    await writeFileSynced(join(importDir, META_FILE), JSON.stringify(meta, null, 2) + '\n');
    return { importDir, meta, skippedSample };
  } catch (err) {
    await feed.cancel();
    await writer?.abandon();
    await rm(importDir, { recursive: true, force: true });
    throw asVulnDbError(err, feed.kind);
  }
}

/** Source failures become VulnDbErrors named for the source: a cut download, a stopped upload, an unreadable file. */
function asVulnDbError(err: unknown, kind: OpenedFeed['kind']): Error {
  if (err instanceof VulnDbError) return err;
  if (err instanceof FeedSyntaxError) return new VulnDbError(err.code, err.message);
  if ((err as Error)?.name === 'AbortError') return new VulnDbError('aborted', 'the import was aborted');
  if (!(err instanceof Error)) return new Error(String(err));
  const code = (err as { code?: unknown }).code;
  // undici reports a connection cut mid-body as a TypeError "terminated" with the socket error as cause.
  const cause = (err as { cause?: { code?: unknown } }).cause;
  const sysCode = typeof code === 'string' ? code : typeof cause?.code === 'string' ? cause.code : '';
  const detail = `${err.message}${sysCode ? ` (${sysCode})` : ''}`;
  if (kind === 'url' && (/^(ECONNRESET|UND_ERR|ETIMEDOUT|EPIPE)/.test(sysCode) || err.message === 'terminated')) {
    return new VulnDbError('fetch_failed', `the download failed: ${detail}`);
  }
  if (kind === 'stream' && (/^(ECONNRESET|ERR_STREAM_PREMATURE_CLOSE|EPIPE)/.test(sysCode) || err.message === 'aborted')) {
    return new VulnDbError('aborted', `the upload stopped before its end: ${detail}`);
  }
  if (kind === 'file' && /^E[A-Z]+$/.test(sysCode)) return new VulnDbError('invalid_source', `cannot read the feed file: ${detail}`);
  return err;
}
