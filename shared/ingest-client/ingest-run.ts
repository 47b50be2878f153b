import type { z } from 'zod';
import { AccessEntryInSchema, describeIssues, WafEventInSchema } from '../schemas/ingest.js';
import { sendBatch, type Entry, type Rejected, type SenderOptions } from './batch-sender.js';
import type { ReadItem } from './entry-reader.js';

// One ingestion run: entries from the reader, grouped into batches, each sent to the end (or, with
// dryRun, validated locally with the same schemas the server uses). Lines that are not JSON are
// rejected here and never sent. The summary counts every entry read exactly once.

export type IngestKind = 'waf' | 'access';

export const INGEST_SCHEMAS: Record<IngestKind, z.ZodTypeAny> = { waf: WafEventInSchema, access: AccessEntryInSchema };

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
  dryRun: boolean;
  sender: SenderOptions;
  onRejected(rejected: Rejected): void | Promise<void>;
  onProgress?(summary: IngestSummary): void;
}

export async function runIngest(items: AsyncIterable<ReadItem>, options: RunOptions): Promise<IngestSummary> {
  const summary: IngestSummary = { read: 0, sent: 0, accepted: 0, rejected: 0, retried: 0 };
  let batch: Entry[] = [];

  const reject = async (rejected: Rejected) => {
    summary.rejected++;
    await options.onRejected(rejected);
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    if (options.dryRun) {
      for (const entry of current) {
        const parsed = INGEST_SCHEMAS[options.kind].safeParse(entry.value);
        if (parsed.success) summary.accepted++;
        else await reject({ line: entry.line, error: describeIssues(parsed.error), entry: entry.value });
      }
    } else {
      const result = await sendBatch(current, options.sender);
      summary.sent += current.length;
      summary.accepted += result.accepted;
      summary.retried += result.retries;
      for (const rejected of result.rejected) await reject(rejected);
    }
    options.onProgress?.(summary);
  };

  for await (const item of items) {
    summary.read++;
    if ('error' in item) {
      await reject({ line: item.line, error: item.error });
      continue;
    }
    batch.push({ line: item.line, value: item.value });
    if (batch.length >= options.batchSize) await flush();
  }
  await flush();
  return summary;
}
