import { describe, expect, it } from 'vitest';
import { BatchingEventSink, type AccessEntry, type WafEvent } from '../../../daemon/proxy/events.js';

const access = (i: number) => ({ request_id: String(i) }) as AccessEntry;
const waf = (i: number) => ({ request_id: String(i) }) as WafEvent;

describe('BatchingEventSink', () => {
  it('writes in batches, in order, off the calling tick', async () => {
    const batches: string[][] = [];
    const sink = new BatchingEventSink({ writeWaf: (e) => { batches.push(e.map((x) => `w${x.request_id}`)); }, writeAccess: (e) => { batches.push(e.map((x) => `a${x.request_id}`)); } }, { maxBatch: 3, maxDelayMs: 20 });
    sink.waf(waf(1));
    sink.access(access(1));
    expect(batches).toEqual([]);
    sink.access(access(2));
    sink.access(access(3)); // third access entry: flush now
    await new Promise((r) => setTimeout(r, 0));
    expect(batches).toEqual([['w1'], ['a1', 'a2', 'a3']]);
    sink.access(access(4));
    await new Promise((r) => setTimeout(r, 50)); // timer flush
    expect(batches.at(-1)).toEqual(['a4']);
  });

  it('never overlaps writes, reports errors, and drops beyond the queue bound', async () => {
    let active = 0, maxActive = 0;
    const errors: unknown[] = [];
    const sink = new BatchingEventSink({
      writeWaf: () => {},
      writeAccess: async (e) => { active++; maxActive = Math.max(maxActive, active); await new Promise((r) => setTimeout(r, 5)); active--; if (e[0].request_id === 'bad') throw new Error('disk full'); },
    }, { maxBatch: 1, maxQueued: 2, onError: (e) => errors.push(e) });
    sink.access(access(1)); sink.access({ request_id: 'bad' } as AccessEntry); sink.access(access(3));
    await sink.flush();
    expect(maxActive).toBe(1);
    expect(errors).toHaveLength(1);
    const bounded = new BatchingEventSink({ writeWaf: () => {}, writeAccess: () => {} }, { maxBatch: 100, maxQueued: 2 });
    bounded.access(access(1)); bounded.access(access(2)); bounded.access(access(3));
    expect(bounded.dropped).toBe(1);
    await bounded.flush();
  });
});

describe('BatchingEventSink under a writer slower than the traffic', () => {
  it('counts entries being written against the bound, so batches cannot pile up in the chain of writes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const written: string[] = [];
    const told: number[] = [];
    const sink = new BatchingEventSink({
      writeWaf: async (e) => { await gate; written.push(...e.map((x) => x.request_id)); },
      writeAccess: () => {},
    }, { maxBatch: 100, maxQueued: 300, onDropped: (n) => told.push(n) });
    // Every 100 entries a batch leaves the queue for the (stuck) writer: before, the queue bound never bit.
    for (let i = 0; i < 1000; i++) sink.waf(waf(i));
    expect(sink.dropped).toBe(700);
    release();
    await sink.flush();
    expect(written).toEqual(Array.from({ length: 300 }, (_, i) => String(i)));
    expect(told).toEqual([700]);
    // Room again once written.
    sink.waf(waf(1000));
    await sink.flush();
    expect(written.at(-1)).toBe('1000');
    expect(sink.dropped).toBe(700);
  });
});
