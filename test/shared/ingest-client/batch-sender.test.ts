import { describe, expect, it } from 'vitest';
import { FatalIngestError, sendBatch, type Transport } from '../../../shared/ingest-client/batch-sender.js';

type Answer = { status: number; body: unknown; retryAfterSeconds?: number } | Error;

function scripted(answers: Answer[]): Transport & { bodies: unknown[][] } {
  const bodies: unknown[][] = [];
  return {
    bodies,
    async post(json) {
      bodies.push(JSON.parse(json) as unknown[]);
      const next = answers.shift();
      if (next === undefined) throw new Error('no more scripted answers');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const batch = [10, 11, 12, 13].map((line) => ({ line, value: { n: line } }));

function options(transport: Transport) {
  const sleeps: number[] = [];
  return { sleeps, opts: { transport, sleep: async (ms: number) => void sleeps.push(ms), random: () => 0.5 } };
}

describe('sendBatch', () => {
  it('maps 207 errors to input lines and never resends accepted entries', async () => {
    const transport = scripted([{ status: 207, body: { processed: 3, errors: [{ index: 2, error: 'host: not a site' }] } }]);
    const result = await sendBatch(batch, options(transport).opts);
    expect(result).toEqual({ accepted: 3, rejected: [{ line: 12, error: 'host: not a site', entry: { n: 12 } }], retries: 0 });
    expect(transport.bodies).toHaveLength(1);
  });

  it('retries 5xx and network errors with growing backoff, then succeeds', async () => {
    const transport = scripted([{ status: 500, body: {} }, new Error('ECONNRESET'), { status: 503, body: {} }, { status: 200, body: { processed: 4 } }]);
    const { sleeps, opts } = options(transport);
    expect(await sendBatch(batch, opts)).toEqual({ accepted: 4, rejected: [], retries: 3 });
    expect(sleeps).toEqual([375, 750, 1500]);
    expect(transport.bodies.every((b) => b.length === 4)).toBe(true);
  });

  it('gives up after the attempts are used, with the last failure', async () => {
    const transport = scripted(Array.from({ length: 8 }, () => ({ status: 502, body: {} })));
    await expect(sendBatch(batch, options(transport).opts)).rejects.toThrow(/HTTP 502\) after 8 attempts/);
  });

  it('waits as long as a 429 says', async () => {
    const transport = scripted([{ status: 429, body: { message: 'slow down', retry_after: 7 } }, { status: 200, body: {} }]);
    const { sleeps, opts } = options(transport);
    expect((await sendBatch(batch, opts)).accepted).toBe(4);
    expect(sleeps).toEqual([7000]);
  });

  it('rejects per index on 400 and splits a batch on 413', async () => {
    const bad = scripted([{ status: 400, body: { message: 'No valid entries', errors: ['[0] severity: bad', '[1] host: unknown'] } }]);
    const rejected = (await sendBatch(batch.filter((_, i) => i === 0 || i === 3), options(bad).opts)).rejected;
    expect(rejected.map((r) => [r.line, r.error])).toEqual([[10, 'severity: bad'], [13, 'host: unknown']]);

    const big = scripted([{ status: 413, body: {} }, { status: 200, body: {} }, { status: 413, body: {} }, { status: 200, body: {} }, { status: 413, body: { message: 'too large' } }]);
    const split = await sendBatch(batch, options(big).opts);
    expect(big.bodies.map((b) => b.length)).toEqual([4, 2, 2, 1, 1]);
    expect(split.accepted).toBe(3);
    expect(split.rejected.map((r) => r.line)).toEqual([13]);
  });

  it('ends the run on a refused token', async () => {
    const transport = scripted([{ status: 401, body: { message: 'Unauthorized', errors: ['invalid or revoked token'] } }]);
    const failure = sendBatch(batch, options(transport).opts);
    await expect(failure).rejects.toBeInstanceOf(FatalIngestError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid_token' });
  });
});
