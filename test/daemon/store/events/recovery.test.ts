import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { SNAPSHOT_VERSION } from '../../../../daemon/store/events/index-snapshot.js';
import { SnapshotWriter } from '../../../../daemon/store/events/snapshot-file.js';
import { accessEntry, memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

const opts = (dir: string, logger = memoryLogger()) => ({ dir, clock: () => NOW, logger, retentionEveryMs: 0, snapshotEveryMs: 0 });
const WAF_FILE = 'waf-2026-11-21.jsonl';

async function seeded(n = 5) {
  const dir = tempDir();
  const s = await openJsonlEventStore(opts(dir));
  await s.appendWafEvents(Array.from({ length: n }, (_, i) => wafEvent({ uri: `/seed/${i}` })));
  await s.appendAccessEntries(Array.from({ length: n }, (_, i) => accessEntry({ client_ip: `10.0.0.${i}` })));
  await s.close();
  return dir;
}

describe('open-time recovery', () => {
  it('cuts a torn last line, reports the byte count, keeps everything before it', async () => {
    const dir = await seeded(3);
    const torn = '{"id":99,"site_id":1,"timest';
    fs.appendFileSync(path.join(dir, WAF_FILE), torn);
    const logger = memoryLogger();
    const s = await openJsonlEventStore(opts(dir, logger));
    expect(s.stats().torn_bytes_cut).toBe(torn.length);
    expect(logger.records).toContainEqual({ level: 'warn', msg: 'torn last line cut from segment', fields: { file: WAF_FILE, bytes: torn.length } });
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(3);
    expect(fs.readFileSync(path.join(dir, WAF_FILE), 'utf8').endsWith('}\n')).toBe(true);
    await s.close();
  });

  it('skips, counts and logs lines edited into invalid JSON, and keeps serving', async () => {
    const dir = await seeded(4);
    const file = path.join(dir, WAF_FILE);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[1] = 'this is { not json';
    lines[2] = '{"id":"x"}';
    fs.writeFileSync(file, lines.join('\n'));
    const logger = memoryLogger();
    const s = await openJsonlEventStore(opts(dir, logger));
    expect(s.stats().invalid_lines).toBe(2);
    expect(logger.records.filter((r) => r.msg === 'invalid segment line skipped')).toHaveLength(2);
    const page = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    expect(page.logs.map((l) => l.uri)).toEqual(['/seed/3', '/seed/0']);
    await s.appendWafEvents([wafEvent({ uri: '/new' })]);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(3);
    await s.close();
  });

  it('uses the snapshot and replays only what was appended after it', async () => {
    const dir = await seeded(5);
    // Entries appended by a process that died before writing a snapshot.
    const extra = { ...wafEvent({ uri: '/after-snapshot' }), id: 50 };
    fs.appendFileSync(path.join(dir, WAF_FILE), JSON.stringify(extra) + '\n');
    const s = await openJsonlEventStore(opts(dir));
    expect(s.openReport.waf.usedSnapshot).toBe(true);
    expect(s.openReport.waf.entriesRead).toBe(1);
    expect(s.openReport.access.entriesRead).toBe(0);
    const page = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    expect(page.pagination.total).toBe(6);
    expect(page.logs[0]).toMatchObject({ id: 50, uri: '/after-snapshot' });
    const [next] = await s.appendWafEvents([wafEvent()]);
    expect(next).toBeGreaterThan(50);
    await s.close();
  });

  it('re-reads a snapshotted segment whose bytes changed, and drops a deleted one', async () => {
    const dir = await seeded(3);
    const s0 = await openJsonlEventStore(opts(dir));
    await s0.appendWafEvents([wafEvent({ timestamp_ms: NOW - 86_400_000, uri: '/yesterday' })]);
    await s0.close();
    const file = path.join(dir, WAF_FILE);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('/seed/1', '/EDITED'));
    fs.rmSync(path.join(dir, 'waf-2026-11-20.jsonl'));
    const s = await openJsonlEventStore(opts(dir));
    expect(s.openReport.waf.reread).toEqual([WAF_FILE]);
    expect(s.openReport.waf.dropped).toEqual(['waf-2026-11-20.jsonl']);
    const page = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    expect(page.logs.map((l) => l.uri)).toEqual(['/seed/2', '/EDITED', '/seed/0']);
    await s.close();
  });

  it('refreshes a snapshot that no longer matches, so the next start does not redo the work', async () => {
    const dir = await seeded(3);
    const s0 = await openJsonlEventStore(opts(dir));
    await s0.appendWafEvents([wafEvent({ timestamp_ms: NOW - 86_400_000, uri: '/yesterday' })]);
    await s0.close();
    fs.rmSync(path.join(dir, 'waf-2026-11-20.jsonl'));
    // Open and close without any append: nothing marks the index changed but the open itself.
    const s1 = await openJsonlEventStore(opts(dir));
    expect(s1.openReport.waf.dropped).toEqual(['waf-2026-11-20.jsonl']);
    await s1.close();
    const s2 = await openJsonlEventStore(opts(dir));
    expect(s2.openReport.waf).toMatchObject({ usedSnapshot: true, dropped: [], reread: [], entriesRead: 0 });
    expect((await s2.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(3);
    await s2.close();
  });

  it('answers the same after a restart from a snapshot with sealed, compressed URI blobs', async () => {
    const dir = tempDir();
    const s = await openJsonlEventStore(opts(dir));
    const n = 20_000;
    await s.appendWafEvents(Array.from({ length: n }, (_, i) => wafEvent({ uri: `/P/${i}${i % 97 === 0 ? '/ETC/Passwd' : ''}${i === 5 ? '/İ' : ''}`, client_ip: `10.${i % 3}.0.${i % 250}` })));
    const queries = ['etc/passwd', '/p/1999', 'İ', '10.1.0.0/16', '10.2.0.7', undefined];
    const before = await Promise.all(queries.map((search) => s.searchWafLogs({ site_id: 1, page: 3, per_page: 25, search })));
    await s.close();
    fs.writeFileSync(path.join(dir, 'index', 'waf.snap.tmp-99999'), ''); // left by a killed writer
    const s2 = await openJsonlEventStore(opts(dir));
    expect(s2.openReport.waf.usedSnapshot).toBe(true);
    expect(s2.openReport.waf.entriesRead).toBe(0);
    expect(await Promise.all(queries.map((search) => s2.searchWafLogs({ site_id: 1, page: 3, per_page: 25, search })))).toEqual(before);
    expect(before[0].pagination.total).toBe(Math.ceil(n / 97));
    expect(fs.readdirSync(path.join(dir, 'index')).some((f) => f.includes('.tmp'))).toBe(false);
    await s2.close();
    // A store that never touches its URI chunks writes them back as stored (not unpacked); the next open reads them the same.
    const s3 = await openJsonlEventStore(opts(dir));
    await s3.appendWafEvents([wafEvent({ uri: '/ETC/PASSWD/new' })]);
    await s3.close();
    const s4 = await openJsonlEventStore(opts(dir));
    expect(s4.openReport.waf).toMatchObject({ usedSnapshot: true, entriesRead: 0 });
    const pinned = await Promise.all(queries.map((search, k) => s4.searchWafLogs({ site_id: 1, page: 3, per_page: 25, search, before_id: before[k].as_of_id })));
    expect(pinned).toEqual(before);
    expect((await s4.searchWafLogs({ site_id: 1, page: 1, per_page: 1, search: 'etc/passwd' })).logs[0].uri).toBe('/ETC/PASSWD/new');
    await s4.close();
  });

  it('sites restored packed answer, take appends and leave by retention like unpacked ones', async () => {
    const dir = tempDir();
    const s = await openJsonlEventStore(opts(dir));
    const DAY = 86_400_000;
    // Three sites over three days (site 3 only on the oldest day), WAF events and access entries.
    for (const site_id of [1, 2, 3]) {
      for (const back of site_id === 3 ? [2] : [0, 1, 2]) {
        const at = NOW - 60_000 - back * DAY;
        await s.appendWafEvents(Array.from({ length: 30 }, (_, i) => wafEvent({ site_id, timestamp_ms: at, uri: `/s${site_id}/d${back}/${i}`, client_ip: `10.${site_id}.${back}.${i % 4}` })));
        await s.appendAccessEntries(Array.from({ length: 20 }, (_, i) => accessEntry({ site_id, timestamp: Math.floor(at / 1000), client_ip: `10.${site_id}.${back}.${i}` })));
      }
    }
    const ask = (st: typeof s) =>
      Promise.all([1, 2, 3].flatMap((site_id) => [st.searchWafLogs({ site_id, page: 1, per_page: 7, search: `10.${site_id}.2.1` }), st.searchWafLogs({ site_id, page: 2, per_page: 7 }), st.analytics({ site_id, period: '7d' })]));
    const before = await ask(s);
    await s.close();
    const s2 = await openJsonlEventStore(opts(dir));
    expect(s2.stats().waf_events).toBe(210); // counted without unpacking any site
    expect(await ask(s2)).toEqual(before);
    await s2.close();
    // Appends into a site still packed, then retention of the oldest day across packed sites.
    const s3 = await openJsonlEventStore(opts(dir));
    await s3.appendWafEvents([wafEvent({ site_id: 2, uri: '/s2/new' })]);
    await s3.appendAccessEntries([accessEntry({ site_id: 2, client_ip: '10.2.9.9' })]);
    expect((await s3.searchWafLogs({ site_id: 2, page: 1, per_page: 1 })).logs[0].uri).toBe('/s2/new');
    expect((await s3.analytics({ site_id: 2, period: '24h' })).total_requests).toBe(21);
    await s3.close();
    // Sites 1 and 3 were never unpacked by s3: its snapshot wrote their stored bytes back.
    const s3b = await openJsonlEventStore(opts(dir));
    expect(s3b.openReport.waf).toMatchObject({ usedSnapshot: true, entriesRead: 0 });
    await s3b.warm; // every site unpacked in the background: same answers
    // (as_of_id, the newest id of the store, moved on with s3's appends.)
    const untouched = (answers: unknown[]) => [...answers.slice(0, 3), ...answers.slice(6)].map((a) => ({ ...(a as object), as_of_id: undefined }));
    expect(untouched(await ask(s3b))).toEqual(untouched(before));
    expect(s3b.stats().waf_events).toBe(211);
    await s3b.close();
    const closedEarly = await openJsonlEventStore(opts(dir));
    await closedEarly.close();
    await closedEarly.warm; // stops at close, does not hang
    const s4 = await openJsonlEventStore({ ...opts(dir), retentionDays: 1 });
    await s4.applyRetention(NOW);
    expect(s4.stats().waf_events).toBe(121);
    expect((await s4.searchWafLogs({ site_id: 3, page: 1, per_page: 5 })).pagination.total).toBe(0);
    expect((await s4.searchWafLogs({ site_id: 1, page: 1, per_page: 5 })).pagination.total).toBe(60);
    expect((await s4.analytics({ site_id: 3, period: '7d' })).total_requests).toBe(0);
    expect((await s4.analytics({ site_id: 1, period: '7d' })).total_requests).toBe(40);
    await s4.close();
  });

  it('refuses at open (and rebuilds) a snapshot whose site sections do not fit together, without unpacking the site', async () => {
    const dir = await seeded(5);
    const file = path.join(dir, 'index', 'waf.snap');
    const bytes = fs.readFileSync(file);
    const len = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString('utf8', 16, 16 + len)) as { sections: Record<string, { length: number }> };
    expect(header.sections['s1.ts'].length).toBe(40); // 5 timestamps, stored as is
    header.sections['s1.ts'].length = 32; // one timestamp short (same header length)
    const edited = Buffer.from(JSON.stringify(header), 'utf8');
    expect(edited.length).toBe(len);
    edited.copy(bytes, 16);
    fs.writeFileSync(file, bytes);
    const logger = memoryLogger();
    const s = await openJsonlEventStore(opts(dir, logger));
    expect(logger.records).toContainEqual(expect.objectContaining({ msg: 'index snapshot unreadable, rebuilding from segments', fields: expect.objectContaining({ error: expect.stringMatching(/do not fit together/) }) }));
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(5);
    await s.close();
  });

  it('rebuilds from the segments when the snapshot is unreadable', async () => {
    const dir = await seeded(3);
    fs.writeFileSync(path.join(dir, 'index', 'waf.snap'), 'garbage');
    const logger = memoryLogger();
    const s = await openJsonlEventStore(opts(dir, logger));
    expect(logger.records.some((r) => r.msg.startsWith('index snapshot unreadable'))).toBe(true);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(3);
    expect((await s.analytics({ site_id: 1, period: '24h' })).total_requests).toBe(3);
    await s.close();
  });

  it('rebuilds from the segments, and says why, when the snapshot is of another format', async () => {
    const dir = await seeded(3);
    const old = new SnapshotWriter();
    old.json('meta', { version: SNAPSHOT_VERSION - 1, coverage: {}, maxId: 3, sites: [] });
    await old.write(path.join(dir, 'index', 'waf.snap'));
    const logger = memoryLogger();
    const s = await openJsonlEventStore(opts(dir, logger));
    expect(logger.records).toContainEqual(expect.objectContaining({ msg: 'index snapshot unreadable, rebuilding from segments', fields: expect.objectContaining({ error: expect.stringMatching(new RegExp(`format ${SNAPSHOT_VERSION - 1}`)) }) }));
    expect(s.openReport.waf).toMatchObject({ usedSnapshot: false, entriesRead: 3 });
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10, search: '203.0.113.7' })).pagination.total).toBe(3);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(3);
    await s.close();
  });
});
