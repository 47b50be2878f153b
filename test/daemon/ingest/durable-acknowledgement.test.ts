// The ingestion route over the real event store (group commit, real files), with batches sent
// concurrently as a shipper with several connections does: a batch is answered 200 only once a
// fdatasync covering all of its lines has returned, and a failed fdatasync answers 500 with the
// documented body to every batch of the groups it sinks, leaving none of their lines behind (so
// a retry cannot store an event twice). The syncs are held or failed by a spy around the real
// fdatasync: a disk cannot be told to be slow or fail on cue.
import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ingestPlugin } from '../../../daemon/ingest/plugin.js';
import { MemoryCounterStore } from '../../../daemon/store/counter-store.js';
import { openJsonlEventStore, type JsonlEventStore } from '../../../daemon/store/events/jsonl-event-store.js';
import { SegmentFiles, type SegmentHandle } from '../../../daemon/store/events/segment-files.js';
import { memoryLogger, NOW, segmentLines, tempDir } from '../store/events/helpers.js';

const TOKEN = 'wfi_durabletoken0123456789';
const BATCHES = 4;
const PER_BATCH = 100;

interface HeldSync {
  /** Bytes of the segment when the sync was asked for: what it makes durable. */
  covers: number;
  release(fail?: NodeJS.ErrnoException): Promise<void>;
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setUp() {
  const dir = tempDir('wafctl-ingest-durable-');
  const store: JsonlEventStore = await openJsonlEventStore({ dir, clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 });
  const app: FastifyInstance = Fastify();
  await app.register(ingestPlugin, {
    deps: {
      authenticate: (token) => (token === TOKEN ? { accountId: 'a1', tokenId: 't1' } : null),
      siteOf: () => ({ siteId: 1 }),
      storeWaf: async (entries) => void (await store.appendWafEvents(entries)),
      storeAccess: async (entries) => void (await store.appendAccessEntries(entries)),
      counter: new MemoryCounterStore(),
      now: () => NOW,
      requestsPerMinute: 1_000_000,
    },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  cleanup.push(async () => {
    await app.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, store, base };
}

/** Holds every segment sync until the test releases it; `durable` is what released syncs made durable. */
function holdSyncs() {
  const held: HeldSync[] = [];
  const state = { durable: 0 };
  const real = SegmentFiles.prototype.sync;
  vi.spyOn(SegmentFiles.prototype, 'sync').mockImplementation(function (this: SegmentFiles, h: SegmentHandle, slot = 0) {
    const covers = fs.fstatSync(h.fds[slot]).size;
    return new Promise<void>((resolve, reject) => {
      held.push({
        covers,
        release: async (fail) => {
          if (fail) return reject(fail);
          await real.call(this, h, slot);
          state.durable = Math.max(state.durable, covers);
          resolve();
        },
      });
    });
  });
  return { held, state };
}

/** Waits (bounded by tries, not by a time) for a condition the event loop will make true. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

const batch = (b: number) =>
  Array.from({ length: PER_BATCH }, (_, i) => ({
    timestamp_ms: NOW - 60_000 + b * PER_BATCH + i,
    host: 'shop.example',
    client_ip: `198.51.${b}.${i + 1}`,
    uri: `/b${b}/e${i}?q=1`,
    method: 'GET',
    waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf',
    rule_id: '942100',
    severity: 'CRITICAL',
    msg: 'SQL Injection Attack Detected via libinjection',
  }));

interface Answer {
  batch: number;
  status: number;
  body: Record<string, unknown>;
  /** Segment bytes made durable when the answer arrived. */
  durableAtAnswer: number;
}

function post(base: string, b: number, state: { durable: number }): Promise<Answer> {
  return request(`${base}/api/vector/waf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(batch(b)),
  }).then(async (res) => ({ batch: b, status: res.statusCode, body: (await res.body.json()) as Record<string, unknown>, durableAtAnswer: state.durable }));
}

/** The one segment's lines with their end offsets. */
function linesWithEnds(dir: string): Array<{ uri: string; end: number }> {
  const file = fs.readdirSync(dir).find((f) => f.startsWith('waf-'));
  if (!file) return [];
  let end = 0;
  return fs
    .readFileSync(`${dir}/${file}`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ uri: (JSON.parse(line) as { uri: string }).uri, end: (end += Buffer.byteLength(line) + 1) }));
}

describe('ingestion acknowledges concurrent batches only once they are durable', () => {
  it('answers each batch 200 only after a fdatasync covering all its lines returned', async () => {
    const { dir, base } = await setUp();
    const { held, state } = holdSyncs();
    const answers: Answer[] = [];
    const sent = Array.from({ length: BATCHES }, (_, b) => post(base, b, state).then((a) => void answers.push(a)));
    await until(() => held.length > 0);
    // Written but not synced: nothing may be acknowledged yet.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(answers).toEqual([]);
    while (answers.length < BATCHES) {
      await until(() => held.length > 0 || answers.length === BATCHES);
      if (held.length > 0) await held.shift()!.release();
    }
    await Promise.all(sent);
    const lines = linesWithEnds(dir);
    expect(lines).toHaveLength(BATCHES * PER_BATCH);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ message: `Processed ${PER_BATCH} entries`, processed: PER_BATCH });
      const own = lines.filter((l) => l.uri.startsWith(`/b${a.batch}/`));
      expect(own).toHaveLength(PER_BATCH);
      expect(Math.max(...own.map((l) => l.end))).toBeLessThanOrEqual(a.durableAtAnswer);
    }
  });

  it('a failed fdatasync answers 500 to every batch it sinks, stores none of their lines, and the retry lands once', async () => {
    const { dir, store, base } = await setUp();
    const { held, state } = holdSyncs();
    const answers: Answer[] = [];
    const sent = Array.from({ length: BATCHES }, (_, b) => post(base, b, state).then((a) => void answers.push(a)));
    await until(() => held.length > 0);
    await held.shift()!.release(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    while (answers.length < BATCHES) {
      await until(() => held.length > 0 || answers.length === BATCHES);
      if (held.length > 0) await held.shift()!.release();
    }
    await Promise.all(sent);

    const failed = answers.filter((a) => a.status === 500);
    expect(failed.length).toBeGreaterThan(0);
    const lines = linesWithEnds(dir);
    for (const a of answers) {
      const own = lines.filter((l) => l.uri.startsWith(`/b${a.batch}/`));
      if (a.status === 500) {
        expect(a.body).toEqual({ message: 'Internal server error', errors: ['the entries were not stored; retry later'] });
        expect(own).toEqual([]);
      } else {
        expect(a.status).toBe(200);
        expect(own).toHaveLength(PER_BATCH);
      }
    }

    // The shipper retries what was refused: every event then stored exactly once.
    vi.restoreAllMocks();
    for (const a of failed) expect((await post(base, a.batch, state)).status).toBe(200);
    const uris = segmentLines(dir, 'waf').map((l) => l.uri as string);
    expect(uris).toHaveLength(BATCHES * PER_BATCH);
    expect(new Set(uris).size).toBe(BATCHES * PER_BATCH);
    expect((await store.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(BATCHES * PER_BATCH);
  });
});
