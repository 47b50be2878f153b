// The pipelined group commit on real files: several groups written and syncing at once,
// acknowledged in order, and a failure in the middle of the pipeline. The syncs are held or
// failed by a spy around the real fdatasync (a disk cannot be told to be slow or fail on cue).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventStoreError } from '../../../../daemon/store/event-store.js';
import { openJsonlEventStore, type JsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { SegmentFiles, type SegmentHandle } from '../../../../daemon/store/events/segment-files.js';
import { memoryLogger, NOW, segmentLines, tempDir, wafEvent } from './helpers.js';

const open: JsonlEventStore[] = [];
async function openStore(dir: string, commit: { depth: number; startBytes: number }, logger = memoryLogger()) {
  const s = await openJsonlEventStore({ dir, clock: () => NOW, logger, retentionEveryMs: 0, snapshotEveryMs: 0, commit });
  open.push(s);
  return s;
}
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of open.splice(0)) await s.close();
});

interface HeldSync {
  fd: number;
  slot: number;
  /** Runs the real fdatasync (or fails) and settles the store's sync call; resolves once it has. */
  release(fail?: NodeJS.ErrnoException): Promise<void>;
}

/** Holds every segment sync until the test releases it; returns the list of held syncs. */
function holdSyncs(): HeldSync[] {
  const held: HeldSync[] = [];
  const real = SegmentFiles.prototype.sync;
  vi.spyOn(SegmentFiles.prototype, 'sync').mockImplementation(function (this: SegmentFiles, h: SegmentHandle, slot = 0) {
    return new Promise<void>((resolve, reject) => {
      held.push({
        fd: h.fds[slot],
        slot,
        release: async (fail) => {
          if (fail) return reject(fail);
          await real.call(this, h, slot).then(resolve, reject);
        },
      });
    });
  });
  return held;
}

const tick = () => new Promise((r) => setImmediate(r));
/** Waits (up to 10 s) for the thread pool's writes and syncs to reach a state. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}
const eio = () => Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
const uris = (dir: string) => segmentLines(dir, 'waf').map((l) => l.uri);

describe('pipelined group commit', () => {
  it('syncs two groups at once, each on its own descriptor, and acknowledges them in order', async () => {
    const dir = tempDir();
    const s = await openStore(dir, { depth: 2, startBytes: 1 });
    const held = holdSyncs();
    const order: string[] = [];
    // One append per turn of the event loop: each becomes a group of its own as long as a slot is free.
    const a = s.appendWafEvents([wafEvent({ uri: '/a' })]).then((ids) => (order.push('a'), ids));
    await tick();
    const b = s.appendWafEvents([wafEvent({ uri: '/b' })]).then((ids) => (order.push('b'), ids));
    await tick();
    const c = s.appendWafEvents([wafEvent({ uri: '/c' })]).then((ids) => (order.push('c'), ids));
    await until(() => held.length === 2);
    // Both groups are written before either sync returns; the third waits for a free slot.
    expect(uris(dir)).toEqual(['/a', '/b']);
    expect(held.map((h) => h.slot)).toEqual([0, 1]);
    expect(held[0].fd).not.toBe(held[1].fd);
    // The second group's sync finishes first: it is not acknowledged before the first.
    await held[1].release();
    for (let i = 0; i < 5; i++) await tick();
    expect(order).toEqual([]);
    held[0].release();
    await until(() => held.length === 3);
    expect(order).toEqual(['a', 'b']);
    held[2].release();
    expect(await Promise.all([a, b, c])).toEqual([[1], [2], [3]]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).logs.map((l) => l.uri)).toEqual(['/c', '/b', '/a']);
  });

  it('past startBytes an idle pipeline starts a group at once; with a group in flight the rest waits for the end of the turn', async () => {
    const dir = tempDir();
    const s = await openStore(dir, { depth: 3, startBytes: 1 });
    const held = holdSyncs();
    // One turn: /a starts a group at once (nothing in flight); /b and /c join one group at the end of the turn.
    const all = Promise.all(['/a', '/b', '/c'].map((uri) => s.appendWafEvents([wafEvent({ uri })])));
    await until(() => held.length === 2);
    expect(uris(dir)).toEqual(['/a', '/b', '/c']);
    for (let i = 0; i < 5; i++) await tick();
    expect(held).toHaveLength(2);
    for (const h of held) await h.release();
    expect(await all).toEqual([[1], [2], [3]]);
  });

  it('a failed sync in the middle: earlier groups acknowledged, it and every later group rejected, segment cut back', async () => {
    const dir = tempDir();
    const logger = memoryLogger();
    const s = await openStore(dir, { depth: 3, startBytes: 1 }, logger);
    await s.appendWafEvents([wafEvent({ uri: '/before' })]);
    const held = holdSyncs();
    const outcome = (p: Promise<number[]>) => p.then(() => 'acked', (e: unknown) => (e instanceof EventStoreError ? 'rejected' : `other: ${String(e)}`));
    const first = outcome(s.appendWafEvents([wafEvent({ uri: '/first' })]));
    await tick();
    const middle = outcome(s.appendWafEvents([wafEvent({ uri: '/middle' })]));
    await tick();
    const last = outcome(s.appendWafEvents([wafEvent({ uri: '/last' })]));
    await until(() => held.length === 3);
    expect(uris(dir)).toEqual(['/before', '/first', '/middle', '/last']);
    // The last group's sync succeeds first, then the middle one fails, then the first succeeds.
    await held[2].release();
    await held[1].release(eio());
    for (let i = 0; i < 5; i++) await tick();
    // Nothing is acknowledged or rejected before the first group has settled.
    const settled: string[] = [];
    void first.then((r) => settled.push(`first ${r}`));
    void middle.then((r) => settled.push(`middle ${r}`));
    void last.then((r) => settled.push(`last ${r}`));
    expect(settled).toEqual([]);
    held[0].release();
    expect([await first, await middle, await last]).toEqual(['acked', 'rejected', 'rejected']);
    // The rejections come after the cut: what a rejected caller reads is only what was acknowledged.
    expect(uris(dir)).toEqual(['/before', '/first']);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).logs.map((l) => l.uri)).toEqual(['/first', '/before']);
    expect(logger.records.filter((r) => r.msg === 'event write failed, group rejected')).toHaveLength(1);
    // The store goes on: new groups are written after the cut, ids still rising.
    vi.restoreAllMocks();
    const [id] = await s.appendWafEvents([wafEvent({ uri: '/after' })]);
    expect(id).toBeGreaterThan(4);
    expect(uris(dir)).toEqual(['/before', '/first', '/after']);
    await s.close();
    const again = await openStore(dir, { depth: 1, startBytes: 1 });
    expect((await again.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).logs.map((l) => l.uri)).toEqual(['/after', '/first', '/before']);
  });

  it('the first group failing rejects the groups in flight behind it even if their syncs succeeded', async () => {
    const dir = tempDir();
    const s = await openStore(dir, { depth: 2, startBytes: 1 });
    const held = holdSyncs();
    const a = s.appendWafEvents([wafEvent({ uri: '/a' })]);
    await tick();
    const b = s.appendWafEvents([wafEvent({ uri: '/b' })]);
    await tick();
    const c = s.appendWafEvents([wafEvent({ uri: '/c' })]); // waits for a slot
    await until(() => held.length === 2);
    held[1].release();
    held[0].release(eio());
    await expect(a).rejects.toBeInstanceOf(EventStoreError);
    await expect(b).rejects.toBeInstanceOf(EventStoreError);
    // The queued append was never written: it goes into the next group, after the cut.
    await until(() => held.length === 3);
    expect(uris(dir)).toEqual(['/c']);
    held[2].release();
    expect(await c).toEqual([3]);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(1);
  });

  it('a failed write stops the groups behind it from writing', async () => {
    const dir = tempDir();
    const s = await openStore(dir, { depth: 3, startBytes: 1 });
    const held = holdSyncs();
    const write = vi.spyOn(SegmentFiles.prototype, 'write');
    write.mockImplementationOnce(async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    const a = s.appendWafEvents([wafEvent({ uri: '/a' })]);
    await tick();
    const b = s.appendWafEvents([wafEvent({ uri: '/b' })]);
    await expect(a).rejects.toThrow(/ENOSPC/);
    await expect(b).rejects.toThrow(/ENOSPC/);
    expect(write).toHaveBeenCalledTimes(1);
    expect(held).toHaveLength(0);
    expect(uris(dir)).toEqual([]);
  });

  it('retention and drain wait for every group in flight, and groups after them wait for them', async () => {
    const dir = tempDir();
    const s = await openStore(dir, { depth: 2, startBytes: 1 });
    const held = holdSyncs();
    const a = s.appendWafEvents([wafEvent({ uri: '/a' })]);
    await tick();
    const b = s.appendWafEvents([wafEvent({ uri: '/b' })]);
    await until(() => held.length === 2);
    let retained = false;
    const retention = s.applyRetention(NOW).then(() => (retained = true));
    const c = s.appendWafEvents([wafEvent({ uri: '/c' })]);
    for (let i = 0; i < 5; i++) await tick();
    expect(retained).toBe(false);
    held[0].release();
    held[1].release();
    await retention;
    expect(await Promise.all([a, b])).toEqual([[1], [2]]);
    await until(() => held.length === 3);
    held[2].release();
    expect(await c).toEqual([3]);
  });

  it('with the defaults, concurrent writers of large batches share the pipeline and every entry lands once, in id order', async () => {
    const dir = tempDir();
    const s = await openJsonlEventStore({ dir, clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 });
    open.push(s);
    const sync = vi.spyOn(SegmentFiles.prototype, 'sync');
    const big = 'x'.repeat(4000); // 100 rows ~ 420 KB: past startBytes, so groups start mid-turn
    const acked: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, w) => {
        for (let k = 0; k < 4; k++) acked.push(...(await s.appendWafEvents(Array.from({ length: 100 }, (_, i) => wafEvent({ uri: `/${w}/${k}/${i}/${big}` })))));
      }),
    );
    const slots = new Set(sync.mock.calls.map((call) => call[1]));
    expect(slots).toEqual(new Set([0, 1]));
    const ids = segmentLines(dir, 'waf').map((l) => l.id as number);
    expect(ids).toEqual([...acked].sort((x, y) => x - y));
    expect(ids).toEqual(Array.from({ length: 2400 }, (_, i) => i + 1));
    expect(fs.readFileSync(path.join(dir, 'waf-2026-11-21.jsonl'), 'utf8').endsWith('\n')).toBe(true);
  });
});
