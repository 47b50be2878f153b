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

/** `local`: the lines read with this batch that were not JSON, reported with its rejects, by line. */
type Settled = { ok: true; sent: number; result: BatchResult; local: Rejected[] } | { ok: false; error: unknown };

const byLine = (a: Rejected, b: Rejected) => a.line - b.line;

export async function runIngest(groups: AsyncIterable<ReadItem[]>, options: RunOptions): Promise<IngestSummary> {
  const summary: IngestSummary = { read: 0, sent: 0, accepted: 0, rejected: 0, retried: 0 };
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const inFlight: Array<Promise<Settled>> = [];
  let batch: Entry[] = [];
  // Lines that were not JSON wait for the batch they were read with, so every reject comes out in
  // input order (a parse error used to be printed before the rejects of earlier lines).
  let local: Rejected[] = [];

  const reject = async (rejected: Rejected) => {
    summary.rejected++;
    await options.onRejected(rejected);
  };

  const validate = async (entries: Entry[], unparsed: Rejected[]) => {
    const rejected = [...unparsed];
    for (const entry of entries) {
      const parsed = INGEST_SCHEMAS[options.kind].safeParse(entry.value);
      if (parsed.success) summary.accepted++;
      else rejected.push({ line: entry.line, error: describeIssues(parsed.error), entry: entry.value });
    }
    for (const r of rejected.sort(byLine)) await reject(r);
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
    for (const rejected of [...settled.result.rejected, ...settled.local].sort(byLine)) await reject(rejected);
    options.onProgress?.(summary);
  };

  const flush = async () => {
    if (batch.length === 0 && local.length === 0) return;
    const current = batch;
    const unparsed = local;
    batch = [];
    local = [];
    if (options.dryRun) return validate(current, unparsed);
    const sent = current.length > 0 ? sendBatch(current, options.sender) : Promise.resolve<BatchResult>({ accepted: 0, rejected: [], retries: 0 });
    inFlight.push(
      sent.then(
        (result): Settled => ({ ok: true, sent: current.length, result, local: unparsed }),
        (error: unknown): Settled => ({ ok: false, error }),
      ),
    );
    if (inFlight.length >= concurrency) await settleOldest();
  };

  for await (const group of groups) {
    for (const item of group) {
      summary.read++;
      if ('error' in item) local.push({ line: item.line, error: item.error });
      else batch.push(item);
      // Counting the unparsed lines too keeps memory bounded on a file of nothing but bad lines.
      if (batch.length + local.length >= options.batchSize) await flush();
    }
  }
  await flush();
  while (inFlight.length > 0) await settleOldest();
  return summary;
}
