// The WAF index under a memory budget (chunk-spill.ts): with every sealed chunk
// spilled, /waf-logs answers (rows, exact totals, pages, snapshot cursors) must equal those of
// an index kept whole in memory, across a close and reopen (the snapshot is skipped once the
// index has outgrown its budget) and a retention sweep; memory stays within the budget.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_INDEX_RESIDENT_BYTES, openJsonlEventStore, type JsonlEventStore, type JsonlEventStoreOptions } from '../../../../daemon/store/events/jsonl-event-store.js';
import type { WafLogQuery } from '../../../../daemon/store/event-store.js';
import type { NewWafEvent } from '../../../../shared/schemas/events.js';
import { memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

const DAY = 86_400_000;
const IPS = ['10.0.0.1', '10.0.0.2', '10.0.1.9', '192.168.7.7', '2001:db8::1', '2001:DB8::2', '::ffff:10.0.0.1'];
const RULES = ['942100', '942200', '949110', 'Rule-X'];
const GROUPS = ['crs', 'cms', 'Custom'];
// Exotic case mappings (İ changes length when lower-cased), non-ASCII and a line break (stored as a space).
const URIS = ['/wp-login.php', '/xmlrpc.php?a=1', '/Search?Q=SELECT', '/İstanbul/x', '/Ünïcode', '/a\nb', '/etc/PASSWD'];

/** A deterministic stream of events over three days and two sites (no Math.random: every run is the same). */
function events(n: number): NewWafEvent[] {
  let x = 12345;
  const next = (m: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % m;
  };
  return Array.from({ length: n }, (_, i) => wafEvent({
    site_id: 1 + next(2),
    client_ip: IPS[next(IPS.length)],
    rule_id: RULES[next(RULES.length)],
    group: GROUPS[next(GROUPS.length)],
    uri: `${URIS[next(URIS.length)]}?v=${i}`,
    timestamp_ms: NOW - 2 * DAY + Math.floor((i / n) * 2 * DAY),
  }));
}

const QUERIES: Omit<WafLogQuery, 'site_id'>[] = [
  { page: 1, per_page: 50 },
  { page: 40, per_page: 100 },
  { page: 1, per_page: 20, search: '10.0.0.1' },
  { page: 200, per_page: 10, search: '10.0.0.1' },
  { page: 3, per_page: 30, search: '10.0.0.0/16' },
  { page: 2, per_page: 30, search: '2001:db8::/32' },
  { page: 1, per_page: 25, search: '942200' },
  { page: 100, per_page: 25, search: 'rule:rule-x' },
  { page: 5, per_page: 50, search: 'custom' },
  { page: 1, per_page: 50, search: 'İSTANBUL' },
  { page: 7, per_page: 40, search: 'wp-login' },
  { page: 1, per_page: 10, search: 'a b' },
  { page: 1, per_page: 10, search: '?v=12345' },
  { page: 2, per_page: 100, search: 'uri:select', before_id: 30_000 },
  { page: 3, per_page: 100, before_id: 20_000 },
  { page: 1, per_page: 10, search: 'ünïcode' },
];

/** Every query's answer, as one JSON text per query (a mismatch then names its query, and diffs stay small). */
async function answers(store: JsonlEventStore): Promise<string[]> {
  const out: string[] = [];
  for (const site_id of [1, 2]) for (const q of QUERIES) out.push(`${site_id} ${JSON.stringify(q)} -> ${JSON.stringify(await store.searchWafLogs({ site_id, ...q }))}`);
  return out;
}

function expectSame(got: string[], want: string[]): void {
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) expect.fail(`answer ${i} differs:\n got ${got[i].slice(0, 600)}\nwant ${want[i].slice(0, 600)}`);
}

const dirs: string[] = [];
const open: JsonlEventStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function store(dir: string, indexMemory: JsonlEventStoreOptions['indexMemory'], logger = memoryLogger()): Promise<JsonlEventStore> {
  const s = await openJsonlEventStore({ dir, clock: () => NOW, logger, retentionDays: 1, retentionEveryMs: 0, snapshotEveryMs: 0, indexMemory });
  open.push(s);
  return s;
}

async function fill(s: JsonlEventStore, all: NewWafEvent[]): Promise<void> {
  for (let i = 0; i < all.length; i += 2000) await s.appendWafEvents(all.slice(i, i + 2000));
}

describe('WAF index with a memory budget (spilled chunks)', () => {
  it('answers exactly as the whole in-memory index, also after a reopen and a retention sweep', async () => {
    const all = events(60_000); // ~30,000 a site: each column and URI blob has sealed chunks of 16,384
    const [wholeDir, spilledDir] = [tempDir(), tempDir()];
    dirs.push(wholeDir, spilledDir);
    const whole = await store(wholeDir, false);
    const logger = memoryLogger();
    let spilled = await store(spilledDir, { residentBytes: 0, cacheBytes: 0 }, logger);
    await fill(whole, all);
    await fill(spilled, all);

    const mem = spilled.indexMemoryStats();
    expect(mem.spilled_chunks).toBeGreaterThan(10);
    expect(mem.resident_bytes).toBe(0);
    const expected = await answers(whole);
    expectSame(await answers(spilled), expected);
    expect(expected.filter((a) => a.includes('"logs":[]')).length).toBeLessThan(expected.length / 2);
    // The spill file is unlinked at once: nothing is left in the index directory.
    expect(fs.readdirSync(path.join(spilledDir, 'index')).filter((f) => f.startsWith('spill-'))).toEqual([]);

    // Closed without a WAF snapshot (the index outgrew its budget): the reopen reads the segments, into a bounded index.
    await spilled.close();
    open.splice(open.indexOf(spilled), 1);
    expect(logger.records.filter((r) => r.msg.startsWith('WAF index snapshot skipped'))).toHaveLength(1);
    expect(fs.existsSync(path.join(spilledDir, 'index', 'waf.snap'))).toBe(false);
    spilled = await store(spilledDir, { residentBytes: 0, cacheBytes: 0 });
    expect(spilled.indexMemoryStats().spilled_chunks).toBeGreaterThan(10);
    expectSame(await answers(spilled), expected);

    // Retention drops the oldest day from both (the spilled index is rebuilt into a new spill).
    const deleted = (await whole.applyRetention()).deleted;
    expect(deleted.length).toBeGreaterThan(0);
    expect((await spilled.applyRetention()).deleted).toEqual(deleted);
    const afterRetention = await answers(whole);
    expect(afterRetention).not.toEqual(expected);
    expectSame(await answers(spilled), afterRetention);
  });

  it('keeps the resident chunks within the budget while events keep coming', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const budget = 2 * 1024 * 1024;
    const s = await store(dir, { residentBytes: budget, cacheBytes: 1024 * 1024 });
    const all = events(100_000);
    let maxResident = 0;
    for (let i = 0; i < all.length; i += 5000) {
      await s.appendWafEvents(all.slice(i, i + 5000));
      maxResident = Math.max(maxResident, s.indexMemoryStats().resident_bytes);
    }
    expect(maxResident).toBeLessThanOrEqual(budget);
    expect(s.indexMemoryStats().spilled_bytes).toBeGreaterThan(budget);
    expect(s.stats().waf_events).toBe(100_000);
    const total = (await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total + (await s.searchWafLogs({ site_id: 2, page: 1, per_page: 10 })).pagination.total;
    expect(total).toBe(100_000);
  });

  it('heap pressure halves the budget down to its floor, spilling at once, with the same answers', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const s = await store(dir, { residentBytes: 64 * 1024 * 1024, cacheBytes: 1024 * 1024 });
    await fill(s, events(120_000));
    const before = await answers(s);
    const resident = s.indexMemoryStats().resident_bytes;
    expect(resident).toBeGreaterThan(MIN_INDEX_RESIDENT_BYTES);
    expect(s.indexMemoryStats().spilled_bytes).toBe(0);

    const budgets: number[] = [];
    for (let shrunk = s.shrinkIndexMemory(); shrunk; shrunk = s.shrinkIndexMemory()) {
      expect(shrunk.to_bytes).toBe(Math.max(MIN_INDEX_RESIDENT_BYTES, Math.floor(shrunk.from_bytes / 2)));
      expect(s.indexMemoryStats().resident_bytes).toBeLessThanOrEqual(shrunk.to_bytes);
      budgets.push(shrunk.to_bytes);
    }
    expect(budgets.at(-1)).toBe(MIN_INDEX_RESIDENT_BYTES);
    expect(s.indexMemoryStats().spilled_bytes).toBeGreaterThan(0);
    expect(s.shrinkIndexMemory()).toBeNull();
    expectSame(await answers(s), before);
    // New events keep to the smaller budget.
    await s.appendWafEvents(events(40_000));
    expect(s.indexMemoryStats().resident_bytes).toBeLessThanOrEqual(MIN_INDEX_RESIDENT_BYTES);
  });

  it('writes snapshots as before while the index fits its budget', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const s = await store(dir, undefined);
    await fill(s, events(5_000));
    await s.close();
    open.splice(open.indexOf(s), 1);
    expect(fs.existsSync(path.join(dir, 'index', 'waf.snap'))).toBe(true);
    const again = await store(dir, undefined);
    expect(again.openReport.waf.usedSnapshot).toBe(true);
    expect(again.openReport.waf.entriesRead).toBe(0);
  });
});
