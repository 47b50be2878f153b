// A snapshot damaged where only unpacking shows it (inflate errors, a cut section, key refs
// outside the string table, a URI chunk) heals: the store logs it once, rebuilds that index
// from the segments, answers exactly (checked against a count over the segment lines), and
// writes a fresh snapshot that the next open uses as is.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { openJsonlEventStore, type JsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { accessEntry, memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

const opts = (dir: string, logger = memoryLogger()) => ({ dir, clock: () => NOW, logger, retentionEveryMs: 0, snapshotEveryMs: 0 });
const DAMAGED = 'index snapshot damaged, rebuilding the index from the segments';
// Site 1 gets more than one URI chunk (16,384) so that its columns, first URI chunk and
// sketches are large enough (>= 64 KiB) to be stored deflated.
const SITE1_WAF = 17_000;

let seed: string;

beforeAll(async () => {
  seed = tempDir();
  const s = await openJsonlEventStore(opts(seed));
  for (let b = 0; b < SITE1_WAF / 1000; b++) {
    await s.appendWafEvents(
      Array.from({ length: 1000 }, (_, i) => {
        const n = b * 1000 + i;
        return wafEvent({ uri: `/shop/item/${n}?q=${n % 7}`, client_ip: `10.1.${n % 50}.${n % 200}`, rule_id: String(942100 + (n % 5)), timestamp_ms: NOW - 3_600_000 + n });
      }),
    );
  }
  await s.appendWafEvents(Array.from({ length: 30 }, (_, i) => wafEvent({ site_id: 2, uri: `/two/${i}`, client_ip: `192.0.2.${i % 4}` })));
  // Two hours of site 1 with 3,000 visitors each: dense sketches (32 KiB each), deflated.
  for (const hoursAgo of [1, 2]) {
    await s.appendAccessEntries(
      Array.from({ length: 3000 }, (_, i) => accessEntry({ client_ip: `172.16.${i >> 8}.${i & 255}`, status: i % 10 === 0 ? 403 : 200, timestamp: Math.floor(NOW / 1000) - hoursAgo * 3600 })),
    );
  }
  await s.appendAccessEntries(Array.from({ length: 20 }, (_, i) => accessEntry({ site_id: 2, client_ip: `198.51.100.${i}` })));
  await s.close();
}, 60_000);

/** A copy of the seeded store, its `kind` snapshot changed by `damage(file bytes, section)`. */
function damagedCopy(kind: 'waf' | 'access', section: string, damage: (bytes: Buffer, at: number, sec: Section, header: Header) => void): string {
  const dir = tempDir();
  fs.cpSync(seed, dir, { recursive: true });
  const file = path.join(dir, 'index', `${kind}.snap`);
  const bytes = fs.readFileSync(file);
  const { header, base } = readHeader(bytes);
  const sec = header.sections[section];
  expect(sec, section).toBeDefined();
  damage(bytes, base + sec.offset, sec, header);
  fs.writeFileSync(file, bytes);
  return dir;
}

interface Section {
  type: string;
  offset: number;
  length: number;
  raw?: number;
  crc?: number;
}
interface Header {
  sections: Record<string, Section>;
}

function readHeader(bytes: Buffer): { header: Header; base: number } {
  const len = bytes.readUInt32LE(8);
  return { header: JSON.parse(bytes.toString('utf8', 16, 16 + len)) as Header, base: (16 + len + 7) & ~7 };
}

/** Rewrites the header in place (padded with spaces to its old length: JSON allows them). */
function writeHeader(bytes: Buffer, header: Header): void {
  const len = bytes.readUInt32LE(8);
  const text = JSON.stringify(header);
  expect(text.length).toBeLessThanOrEqual(len);
  bytes.write(text.padEnd(len, ' '), 16, 'utf8');
}

const flipBytes = (bytes: Buffer, at: number, sec: Section): void => {
  expect(sec.raw, 'section is stored deflated').toBeDefined();
  const mid = at + (sec.length >> 1);
  for (let i = 0; i < 64; i++) bytes[mid + i] ^= 0xa5;
};

const cutSection = (bytes: Buffer, _at: number, sec: Section, header: Header): void => {
  expect(sec.raw, 'section is stored deflated').toBeDefined();
  sec.length = Math.floor(sec.length / 3);
  writeHeader(bytes, header);
};

/** A valid but wrong rule ref in the newest position of a small column stored as is: only its checksum tells. */
const otherRuleRef = (bytes: Buffer, at: number, sec: Section): void => {
  expect(sec.raw, 'small section stored as is').toBeUndefined();
  const last = at + sec.length - 4;
  bytes.writeUInt32LE(bytes.readUInt32LE(last) === 0 ? 1 : 0, last);
};

/** Written so by the store itself (a bug, not the disk): the section's checksum matches, the check of refs must catch it. */
const keyRefOutOfRange = (bytes: Buffer, at: number, sec: Section, header: Header): void => {
  expect(sec.raw, 'small section stored as is').toBeUndefined();
  bytes.writeUInt32LE(0x7fff_0000, at);
  sec.crc = zlib.crc32(bytes.subarray(at, at + sec.length));
  writeHeader(bytes, header);
};

/** Every stored line of a kind, straight from the segments. */
function segmentLines(dir: string, kind: 'waf' | 'access'): Record<string, unknown>[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(`${kind}-`) && f.endsWith('.jsonl'))
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Answers of the store next to a brute-force count over the segments. */
async function expectExact(s: JsonlEventStore, dir: string): Promise<void> {
  const waf = segmentLines(dir, 'waf');
  const access = segmentLines(dir, 'access');
  const count = (site: number, match: (e: Record<string, unknown>) => boolean) => waf.filter((e) => e.site_id === site && match(e)).length;
  for (const site of [1, 2]) {
    const all = await s.searchWafLogs({ site_id: site, page: 1, per_page: 5 });
    expect(all.pagination.total).toBe(count(site, () => true));
    const newest = waf.filter((e) => e.site_id === site).sort((a, b) => (b.id as number) - (a.id as number)).slice(0, 5);
    expect(all.logs.map((l) => [l.id, l.waf_rule_id, l.client_ip, l.uri])).toEqual(newest.map((e) => [e.id, e.rule_id, e.client_ip, e.uri]));
    const ip = site === 1 ? '10.1.3.3' : '192.0.2.1';
    expect((await s.searchWafLogs({ site_id: site, page: 1, per_page: 5, search: ip })).pagination.total).toBe(count(site, (e) => e.client_ip === ip));
    expect((await s.searchWafLogs({ site_id: site, page: 1, per_page: 5, search: '942102' })).pagination.total).toBe(count(site, (e) => e.rule_id === '942102'));
    const uri = site === 1 ? 'item/12' : '/two/1';
    expect((await s.searchWafLogs({ site_id: site, page: 1, per_page: 5, search: uri })).pagination.total).toBe(count(site, (e) => (e.uri as string).includes(uri)));
    const a = await s.analytics({ site_id: site, period: '24h' });
    const mine = access.filter((e) => e.site_id === site);
    expect(a.total_requests).toBe(mine.length);
    expect(a.requests_blocked).toBe(mine.filter((e) => e.blocked === true).length);
  }
  expect(s.stats().waf_events).toBe(waf.length);
}

const damageLogs = (logger: ReturnType<typeof memoryLogger>) => logger.records.filter((r) => r.msg === DAMAGED);

/** Open, meet the damage, answer exactly, log once; then the next open uses the fresh snapshot. */
async function healsAndStaysHealed(dir: string, kind: 'waf' | 'access', why: RegExp): Promise<void> {
  const logger = memoryLogger();
  const s = await openJsonlEventStore(opts(dir, logger));
  expect(s.openReport[kind]).toMatchObject({ usedSnapshot: true, entriesRead: 0 }); // the open did not see it
  await expectExact(s, dir);
  expect(damageLogs(logger)).toEqual([
    { level: 'error', msg: DAMAGED, fields: { file: path.join(dir, 'index', `${kind}.snap`), error: expect.stringMatching(why) } },
  ]);
  expect(logger.records).toContainEqual(expect.objectContaining({ msg: 'index rebuilt from the segments', fields: expect.objectContaining({ kind }) }));
  await s.appendWafEvents([wafEvent({ uri: '/after-heal' })]);
  await s.appendAccessEntries([accessEntry({ client_ip: '203.0.113.99' })]);
  await expectExact(s, dir);
  await s.close();

  const again = memoryLogger();
  const s2 = await openJsonlEventStore(opts(dir, again));
  expect(s2.openReport.waf).toMatchObject({ usedSnapshot: true, entriesRead: 0 });
  expect(s2.openReport.access).toMatchObject({ usedSnapshot: true, entriesRead: 0 });
  await s2.warm;
  await expectExact(s2, dir);
  expect(damageLogs(again)).toEqual([]);
  expect(again.records.filter((r) => r.level !== 'info')).toEqual([]);
  await s2.close();
}

describe('a snapshot damaged inside a packed part heals', () => {
  it('bytes flipped inside a deflated WAF column', async () => {
    await healsAndStaysHealed(damagedCopy('waf', 's1.ts', flipBytes), 'waf', /^site 1: /);
  });

  it('a deflated WAF column cut short', async () => {
    await healsAndStaysHealed(damagedCopy('waf', 's1.ip', cutSection), 'waf', /^site 1: /);
  });

  it('postings key refs outside the string table', async () => {
    await healsAndStaysHealed(damagedCopy('waf', 's2.byIp.refs', keyRefOutOfRange), 'waf', /^site 2: .*key ref \d+ outside the table/);
  });

  it('a byte changed in a column stored uncompressed (a valid value, caught by the section checksum)', async () => {
    await healsAndStaysHealed(damagedCopy('waf', 's2.rule', otherRuleRef), 'waf', /^site 2: .*fails its checksum/);
  });

  it('a snapshot written before section checksums is still used as is', async () => {
    const dir = damagedCopy('waf', 's1.ts', (bytes, _at, _sec, header) => {
      for (const sec of Object.values(header.sections)) delete sec.crc;
      writeHeader(bytes, header);
    });
    const logger = memoryLogger();
    const s = await openJsonlEventStore(opts(dir, logger));
    expect(s.openReport.waf).toMatchObject({ usedSnapshot: true, entriesRead: 0 });
    await s.warm;
    await expectExact(s, dir);
    expect(logger.records.filter((r) => r.level !== 'info')).toEqual([]);
    await s.close();
  });

  it('a URI chunk that fails to inflate (found by a URI search, after the site unpacked fine)', async () => {
    await healsAndStaysHealed(damagedCopy('waf', 's1.uri0', flipBytes), 'waf', /^URI chunk 0: /);
  });

  it('bytes flipped inside deflated rollup sketches', async () => {
    await healsAndStaysHealed(damagedCopy('access', 's1.hour.bytes', flipBytes), 'access', /^rollups of site 1: /);
  });

  it('rollup sketches cut short', async () => {
    await healsAndStaysHealed(damagedCopy('access', 's1.hour.bytes', cutSection), 'access', /^rollups of site 1: /);
  });

  it('damage found by the background warm-up while appends arrive: no acknowledged append is lost', async () => {
    const dir = damagedCopy('waf', 's1.ts', flipBytes);
    const logger = memoryLogger();
    const s = await openJsonlEventStore(opts(dir, logger));
    // Appends to the damaged site and the others, before, during and after the rebuild.
    const appends: Promise<number[]>[] = [];
    for (let round = 0; round < 20; round++) {
      appends.push(s.appendWafEvents(Array.from({ length: 50 }, (_, i) => wafEvent({ site_id: 1 + ((round + i) % 3), uri: `/during/${round}/${i}`, client_ip: '10.1.3.3' }))));
      appends.push(s.appendAccessEntries(Array.from({ length: 10 }, (_, i) => accessEntry({ site_id: 1 + (i % 2), client_ip: `10.9.${round}.${i}` }))));
      await new Promise((r) => setImmediate(r));
    }
    await s.warm;
    const ids = (await Promise.all(appends)).flat();
    expect(ids).toHaveLength(20 * 60);
    expect(damageLogs(logger)).toHaveLength(1); // found by the warm-up, before any query
    await expectExact(s, dir);
    expect((await s.searchWafLogs({ site_id: 3, page: 1, per_page: 1 })).pagination.total).toBe(segmentLines(dir, 'waf').filter((e) => e.site_id === 3).length);
    await s.close();
    const again = memoryLogger();
    const s2 = await openJsonlEventStore(opts(dir, again));
    expect(s2.openReport.waf).toMatchObject({ usedSnapshot: true, entriesRead: 0 });
    await expectExact(s2, dir);
    expect(damageLogs(again)).toEqual([]);
    await s2.close();
  });

  it('queries that arrive before the rebuild all wait for it and answer exactly', async () => {
    const dir = damagedCopy('waf', 's1.ts', flipBytes);
    const logger = memoryLogger();
    const s = await openJsonlEventStore(opts(dir, logger));
    const pending = s.appendWafEvents([wafEvent({ uri: '/in-flight' })]);
    const answers = await Promise.all([1, 1, 2].map((site) => s.searchWafLogs({ site_id: site, page: 1, per_page: 1 })));
    await pending;
    const waf = segmentLines(dir, 'waf');
    // The append may or may not be in an answer (it was not acknowledged when they were asked), never counted twice.
    expect([SITE1_WAF, SITE1_WAF + 1]).toContain(answers[0].pagination.total);
    expect(answers[2].pagination.total).toBe(30);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 1 })).pagination.total).toBe(waf.filter((e) => e.site_id === 1).length);
    expect(damageLogs(logger)).toHaveLength(1);
    await s.close();
  });
});
