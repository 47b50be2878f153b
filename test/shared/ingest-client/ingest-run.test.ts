import { describe, expect, it } from 'vitest';
import { FatalIngestError, type Rejected, type Transport } from '../../../shared/ingest-client/batch-sender.js';
import type { ReadItem } from '../../../shared/ingest-client/entry-reader.js';
import { runIngest } from '../../../shared/ingest-client/ingest-run.js';

// runIngest with batches in flight: never more than `concurrency`, results taken in input order,
// every entry counted once, and a fatal answer ends the run only after the others have settled.

async function* groupsOf(items: ReadItem[], size = 7): AsyncGenerator<ReadItem[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

const entries = (n: number): ReadItem[] =>
  Array.from({ length: n }, (_, i) => ({ line: i + 1, value: { n: i + 1 }, text: JSON.stringify({ n: i + 1 }) }));

/** Answers after a delay that shrinks with each batch, so later batches finish first. */
function transport(answer: (batch: Array<{ n: number }>) => { status: number; body: unknown }) {
  let inFlight = 0;
  let peak = 0;
  let calls = 0;
  const sent: number[][] = [];
  const t: Transport = {
    async post(json) {
      const batch = JSON.parse(json) as Array<{ n: number }>;
      sent.push(batch.map((e) => e.n));
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, Math.max(0, 20 - 3 * calls++)));
      inFlight--;
      return answer(batch);
    },
  };
  return { t, sent, peak: () => peak };
}

function run(items: ReadItem[], t: Transport, concurrency?: number) {
  const rejected: Rejected[] = [];
  const progress: number[] = [];
  const done = runIngest(groupsOf(items), {
    kind: 'waf',
    batchSize: 10,
    concurrency,
    dryRun: false,
    sender: { transport: t, sleep: async () => undefined },
    onRejected: (r) => void rejected.push(r),
    onProgress: (s) => void progress.push(s.sent),
  });
  return { done, rejected, progress };
}

describe('runIngest', () => {
  it('keeps up to `concurrency` batches in flight and reports rejects in input order', async () => {
    // Every entry whose number ends in 3 is refused (207).
    const { t, sent, peak } = transport((batch) => {
      const errors = batch.flatMap((e, index) => (e.n % 10 === 3 ? [{ index, error: `bad ${e.n}` }] : []));
      return errors.length ? { status: 207, body: { processed: batch.length - errors.length, errors } } : { status: 200, body: { processed: batch.length } };
    });
    const items: ReadItem[] = [...entries(95), { line: 96, error: 'not valid JSON' }];
    const { done, rejected, progress } = run(items, t, 4);
    expect(await done).toEqual({ read: 96, sent: 95, accepted: 85, rejected: 11, retried: 0 });
    expect(peak()).toBe(4);
    expect(sent.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 95 }, (_, i) => i + 1));
    expect(rejected.filter((r) => r.error.startsWith('bad')).map((r) => r.line)).toEqual([3, 13, 23, 33, 43, 53, 63, 73, 83, 93]);
    expect(progress).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 95]);
  });

  it('sends one batch at a time with concurrency 1', async () => {
    const { t, sent, peak } = transport((batch) => ({ status: 200, body: { processed: batch.length } }));
    expect((await run(entries(35), t, 1).done).accepted).toBe(35);
    expect(peak()).toBe(1);
    expect(sent.map((b) => b[0])).toEqual([1, 11, 21, 31]);
  });

  it('ends the run on a refused token once the batches in flight have settled', async () => {
    let settled = 0;
    const t: Transport = {
      async post(json) {
        const first = (JSON.parse(json) as Array<{ n: number }>)[0].n;
        await new Promise((r) => setTimeout(r, first === 1 ? 1 : 30));
        settled++;
        return first === 1 ? { status: 401, body: { message: 'Unauthorized' } } : { status: 200, body: {} };
      },
    };
    await expect(run(entries(100), t, 3).done).rejects.toBeInstanceOf(FatalIngestError);
    expect(settled).toBe(3);
  });

  it('validates locally with --dry-run and sends nothing', async () => {
    const { t, sent } = transport(() => ({ status: 500, body: {} }));
    const rejected: Rejected[] = [];
    const summary = await runIngest(groupsOf([{ line: 1, value: { host: 'x' }, text: '{}' }]), {
      kind: 'access', batchSize: 10, dryRun: true, sender: { transport: t, sleep: async () => undefined }, onRejected: (r) => void rejected.push(r),
    });
    expect(summary).toMatchObject({ read: 1, sent: 0, accepted: 0, rejected: 1 });
    expect(rejected[0].error).toMatch(/timestamp: /);
    expect(sent).toEqual([]);
  });
});
