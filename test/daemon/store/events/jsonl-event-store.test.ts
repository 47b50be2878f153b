import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventInputError, EventStoreError } from '../../../../daemon/store/event-store.js';
import { openJsonlEventStore, type JsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { SegmentFiles } from '../../../../daemon/store/events/segment-files.js';
import { accessEntry, memoryLogger, NOW, segmentLines, tempDir, wafEvent } from './helpers.js';

const open: JsonlEventStore[] = [];
async function openStore(dir: string, logger = memoryLogger()) {
  const s = await openJsonlEventStore({ dir, clock: () => NOW, logger, retentionEveryMs: 0, snapshotEveryMs: 0 });
  open.push(s);
  return s;
}
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of open.splice(0)) await s.close();
});

describe('appending', () => {
  it('writes one JSON line per entry into the day segment of its timestamp, ids rising', async () => {
    const dir = tempDir();
    const s = await openStore(dir);
    const yesterday = NOW - 86_400_000;
    const ids = await s.appendWafEvents([wafEvent(), wafEvent({ timestamp_ms: yesterday })]);
    expect(ids).toEqual([1, 2]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()).toEqual(['waf-2026-11-20.jsonl', 'waf-2026-11-21.jsonl']);
    const lines = segmentLines(dir, 'waf');
    expect(lines.map((l) => l.id).sort()).toEqual([1, 2]);
    expect(lines.find((l) => l.id === 1)).toMatchObject({ ...wafEvent(), id: 1 });
  });

  it('stores blocked for access entries: as given, or status 403 when absent', async () => {
    const dir = tempDir();
    const s = await openStore(dir);
    await s.appendAccessEntries([accessEntry({ status: 403 }), accessEntry({ status: 200 }), accessEntry({ status: 403, blocked: false }), accessEntry({ status: 200, blocked: true })]);
    expect(segmentLines(dir, 'access').map((l) => l.blocked)).toEqual([true, false, false, true]);
  });

  it('acknowledges only after fdatasync, and appends of one turn share one sync', async () => {
    const dir = tempDir();
    const s = await openStore(dir);
    const sync = vi.spyOn(SegmentFiles.prototype, 'sync');
    const acks = await Promise.all(Array.from({ length: 10 }, (_, i) => s.appendWafEvents([wafEvent({ uri: `/a${i}` })])));
    expect(acks.flat()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(sync).toHaveBeenCalledTimes(1);
  });

  it('rejects bad entries with the index and field, and stores nothing of that call', async () => {
    const dir = tempDir();
    const s = await openStore(dir);
    const bad = { ...wafEvent(), timestamp_ms: '1700000000000' } as unknown as ReturnType<typeof wafEvent>;
    await expect(s.appendWafEvents([wafEvent(), bad])).rejects.toThrow(/\[1\] timestamp_ms/);
    await expect(s.appendAccessEntries([accessEntry({ client_ip: 5 as unknown as string })])).rejects.toBeInstanceOf(EventInputError);
    await expect(s.appendWafEvents([wafEvent({ site_id: -1 })])).rejects.toThrow(/site_id/);
    expect(segmentLines(dir, 'waf')).toEqual([]);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(0);
    expect(await s.appendWafEvents([])).toEqual([]);
  });

  it('a failed fsync rejects every append of the group, cuts the segment back, and shows nothing', async () => {
    const dir = tempDir();
    const logger = memoryLogger();
    const s = await openStore(dir, logger);
    await s.appendWafEvents([wafEvent({ uri: '/kept' })]);
    const before = fs.readFileSync(path.join(dir, 'waf-2026-11-21.jsonl'), 'utf8');
    vi.spyOn(SegmentFiles.prototype, 'sync').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    const group = [s.appendWafEvents([wafEvent({ uri: '/lost1' })]), s.appendWafEvents([wafEvent({ uri: '/lost2' })])];
    for (const p of group) await expect(p).rejects.toBeInstanceOf(EventStoreError);
    expect(fs.readFileSync(path.join(dir, 'waf-2026-11-21.jsonl'), 'utf8')).toBe(before);
    const page = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    expect(page.logs.map((l) => l.uri)).toEqual(['/kept']);
    expect(logger.records.some((r) => r.level === 'error' && r.fields?.code === 'EIO')).toBe(true);
    // The store keeps serving, ids keep rising.
    const [id] = await s.appendWafEvents([wafEvent({ uri: '/after' })]);
    expect(id).toBeGreaterThan(3);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).logs.map((l) => l.uri)).toEqual(['/after', '/kept']);
  });

  it('an acknowledged append is visible at once to every reader (index updates are deferred, never missed)', async () => {
    const dir = tempDir();
    const s = await openStore(dir);
    // Several writers in flight: groups follow each other, each one's index update waits for the next group's write.
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let k = 0; k < 10; k++) {
          const ids = await s.appendWafEvents([wafEvent({ uri: `/w${w}/${k}`, client_ip: `10.0.${w}.${k}` })]);
          seen.push(...ids);
          // Read right after the acknowledgement, before any other turn of the event loop.
          const page = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10, search: `10.0.${w}.${k}` });
          expect(page.logs.map((l) => l.id)).toEqual(ids);
          expect(s.stats().waf_events).toBeGreaterThanOrEqual(seen.length);
        }
      }),
    );
    const all = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 100 });
    expect(all.pagination.total).toBe(40);
    await s.appendAccessEntries([accessEntry({ status: 403 })]);
    const a = await s.analytics({ site_id: 1, period: '24h', now: NOW });
    expect([a.total_requests, a.requests_blocked]).toEqual([1, 1]);
  });

  it('a failed group leaves the groups committed before it indexed', async () => {
    const dir = tempDir();
    const s = await openStore(dir);
    const first = s.appendWafEvents([wafEvent({ uri: '/committed' })]);
    await first;
    // No read in between: the committed group's index update is still deferred when the next group fails.
    vi.spyOn(SegmentFiles.prototype, 'sync').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    await expect(s.appendWafEvents([wafEvent({ uri: '/failed' })])).rejects.toBeInstanceOf(EventStoreError);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).logs.map((l) => l.uri)).toEqual(['/committed']);
    await s.close();
    const again = await openStore(dir);
    expect((await again.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).logs.map((l) => l.uri)).toEqual(['/committed']);
  });

  it('a directory that disappeared rejects appends without crashing', async () => {
    const dir = tempDir();
    const s = await openStore(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    await expect(s.appendWafEvents([wafEvent()])).rejects.toBeInstanceOf(EventStoreError);
    await expect(s.appendAccessEntries([accessEntry()])).rejects.toBeInstanceOf(EventStoreError);
  });

  it('refuses to open where the directory cannot be created', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'not-a-dir');
    fs.writeFileSync(file, 'x');
    await expect(openJsonlEventStore({ dir: file, logger: memoryLogger() })).rejects.toBeInstanceOf(EventStoreError);
  });

  it('rejects appends after close', async () => {
    const s = await openJsonlEventStore({ dir: tempDir(), logger: memoryLogger() });
    await s.close();
    await expect(s.appendWafEvents([wafEvent()])).rejects.toThrow(/closed/);
  });
});

describe('ids', () => {
  it('stay monotonic across restarts, clock jumps and deleted segments', async () => {
    const dir = tempDir();
    let clock = NOW;
    const s1 = await openJsonlEventStore({ dir, clock: () => clock, logger: memoryLogger(), retentionEveryMs: 0 });
    const a = await s1.appendWafEvents([wafEvent(), wafEvent()]);
    await s1.close();
    clock = NOW - 10 * 86_400_000; // the clock went backwards
    const s2 = await openJsonlEventStore({ dir, clock: () => clock, logger: memoryLogger(), retentionEveryMs: 0 });
    const b = await s2.appendAccessEntries([accessEntry()]);
    expect(b[0]).toBeGreaterThan(a[1]);
    await s2.close();
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.jsonl')) fs.rmSync(path.join(dir, f));
    const s3 = await openJsonlEventStore({ dir, clock: () => clock, logger: memoryLogger(), retentionEveryMs: 0 });
    const c = await s3.appendWafEvents([wafEvent()]);
    expect(c[0]).toBeGreaterThan(b[0]);
    await s3.close();
  });

  it('stay above every stored id when the reservation file is lost', async () => {
    const dir = tempDir();
    const s1 = await openJsonlEventStore({ dir, clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0 });
    await s1.appendWafEvents([wafEvent()]);
    const access = await s1.appendAccessEntries([accessEntry(), accessEntry()]);
    await s1.close();
    fs.rmSync(path.join(dir, 'index', 'id-reserved'));
    const s2 = await openJsonlEventStore({ dir, clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0 });
    expect(s2.openReport.access.usedSnapshot).toBe(true);
    const [next] = await s2.appendWafEvents([wafEvent()]);
    expect(next).toBeGreaterThan(access[1]);
    await s2.close();
  });
});

describe('audit log', () => {
  it('receives every committed WAF event, in id order, and nothing that failed', async () => {
    const dir = tempDir();
    const audit = path.join(dir, 'audit.jsonl');
    const s = await openJsonlEventStore({ dir: path.join(dir, 'events'), auditLogPath: audit, logger: memoryLogger(), retentionEveryMs: 0 });
    open.push(s);
    await Promise.all([s.appendWafEvents([wafEvent({ uri: '/1' }), wafEvent({ uri: '/2' })]), s.appendWafEvents([wafEvent({ uri: '/3' })])]);
    vi.spyOn(SegmentFiles.prototype, 'sync').mockRejectedValueOnce(new Error('EIO'));
    await expect(s.appendWafEvents([wafEvent({ uri: '/failed' })])).rejects.toThrow();
    await s.appendAccessEntries([accessEntry()]);
    await s.appendWafEvents([wafEvent({ uri: '/4' })]);
    // One append across two day segments: the segments get their own lines, the audit log all of them in id order.
    const day = 86_400_000;
    await s.appendWafEvents([wafEvent({ uri: '/5' }), wafEvent({ uri: '/6-yesterday', timestamp_ms: NOW - day }), wafEvent({ uri: '/7' })]);
    const lines = fs.readFileSync(audit, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.uri)).toEqual(['/1', '/2', '/3', '/4', '/5', '/6-yesterday', '/7']);
    expect(lines.map((l) => l.id)).toEqual([...lines.map((l) => l.id)].sort((x, y) => x - y));
    const segments = segmentLines(path.join(dir, 'events'), 'waf');
    expect(segments.filter((l) => l.uri === '/6-yesterday')).toHaveLength(1);
    expect(segments.map((l) => l.uri).sort()).toEqual(lines.map((l) => l.uri).sort());
  });
});
