import type { z } from 'zod';
import { AccessEntryInSchema, describeIssues, WafEventInSchema } from '../schemas/ingest.js';
import { sendBatch, type BatchResult, type Entry, type Rejected, type SenderOptions } from './batch-sender.js';
import type { ReadItem } from './entry-reader.js';

// One ingestion run: entries from the reader, grouped into batches, each sent to the end (or, with
// dryRun, validated locally with the same schemas the server uses). Lines that are not JSON are
// rejected here and never sent. The summary counts every entry read exactly once.
// Up to `concurrency` batches are in flight at once: a batch's answer waits for the server's fsync,
// and batches that arrive together share one (group commit). Results are taken in input order, so
// rejects are reported in order and the progress line only counts finished batches; the entries of
// different batches may be stored in another order than they were read (concurrency 1 keeps it).

export type IngestKind = 'waf' | 'access';

export const INGEST_SCHEMAS: Record<IngestKind, z.ZodTypeAny> = { waf: WafEventInSchema, access: AccessEntryInSchema };

export const DEFAULT_CONCURRENCY = 4;

export interface IngestSummary {
  read: number;
  sent: number;
  accepted: number;
  rejected: number;
  retried: number;
}

export interface RunOptions {
  kind: IngestKind;
  batchSize: number;
  /** Batches in flight at once (default 4). */
  concurrency?: number;
  dryRun: boolean;
  sender: SenderOptions;
  onRejected(rejected: Rejected): void | Promise<void>;
  onProgress?(summary: IngestSummary): void;
}

type Settled = { ok: true; sent: number; result: BatchResult } | { ok: false; error: unknown };

export async function runIngest(groups: AsyncIterable<ReadItem[]>, options: RunOptions): Promise<IngestSummary> {
  const summary: IngestSummary = { read: 0, sent: 0, accepted: 0, rejected: 0, retried: 0 };
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const inFlight: Array<Promise<Settled>> = [];
  let batch: Entry[] = [];

  const reject = async (rejected: Rejected) => {
    summary.rejected++;
    await options.onRejected(rejected);
  };

  const validate = async (entries: Entry[]) => {
    for (const entry of entries) {
      const parsed = INGEST_SCHEMAS[options.kind].safeParse(entry.value);
      if (parsed.success) summary.accepted++;
      else await reject({ line: entry.line, error: describeIssues(parsed.error), entry: entry.value });
    }
    options.onProgress?.(summary);
  };

  /** Takes the oldest batch's answer; a failure ends the run once every batch in flight has settled. */
  const settleOldest = async () => {
    const settled = await inFlight.shift()!;
    if (!settled.ok) {
      await Promise.all(inFlight);
      throw settled.error;
    }
    summary.sent += settled.sent;
    summary.accepted += settled.result.accepted;
    summary.retried += settled.result.retries;
    for (const rejected of settled.result.rejected) await reject(rejected);
    options.onProgress?.(summary);
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    if (options.dryRun) return validate(current);
    inFlight.push(
      sendBatch(current, options.sender).then(
        (result): Settled => ({ ok: true, sent: current.length, result }),
        (error: unknown): Settled => ({ ok: false, error }),
      ),
    );
    if (inFlight.length >= concurrency) await settleOldest();
  };

  for await (const group of groups) {
    for (const item of group) {
      summary.read++;
      if ('error' in item) {
        await reject({ line: item.line, error: item.error });
        continue;
      }
      batch.push(item);
      if (batch.length >= options.batchSize) await flush();
    }
  }
  await flush();
  while (inFlight.length > 0) await settleOldest();
  return summary;
}
