// Import from files and streams into a real directory: validation and counting, rejection of
// bad documents with the old database kept, atomic replacement, metadata, reopen from disk.

import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { VulnDb } from '../../../daemon/vulndb/vulndb.js';
import { VulnDbError } from '../../../daemon/vulndb/vulndb-error.js';
import { NO_DATABASE_MESSAGE } from '../../../daemon/vulndb/check.js';
import { VulnCheckResponseSchema, VulnDbStatusSchema } from '../../../shared/schemas/vulndb.js';
import { ID, SAMPLE_FEED, withTempDir } from './helpers.js';

type Feed = Record<string, Record<string, unknown>>;
const sample = async (): Promise<Feed> => JSON.parse(await readFile(SAMPLE_FEED, 'utf8')) as Feed;

async function expectImportError(p: Promise<unknown>, code: string): Promise<VulnDbError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VulnDbError);
  expect((err as VulnDbError).code).toBe(code);
  return err as VulnDbError;
}

function checkCore(db: VulnDb, version: string): string[] {
  const parsed = db.parseCheckRequest({ cms_version: version });
  if (!parsed.ok) throw new Error(parsed.message);
  return db.check(parsed.request).cms.vulnerabilities.map((v) => v.id);
}

/** Everything in the directory except the live generation and CURRENT: leftovers of a failed import. */
async function leftovers(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  const current = (await readFile(join(dir, 'CURRENT'), 'utf8').catch(() => '')).trim();
  return names.filter((n) => n !== 'CURRENT' && n !== current);
}

describe('VulnDb with no database', () => {
  it('answers honestly: success, same shape, empty lists, zero counts, a message and the attribution', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      expect(db.status()).toEqual({ loaded: false });
      const parsed = db.parseCheckRequest({ cms_version: '6.4.1', plugins: [{ slug: 'akismet', version: '5.0' }] });
      expect(parsed.ok).toBe(true);
      const r = db.check((parsed as { ok: true; request: never }).request);
      VulnCheckResponseSchema.parse(r);
      expect(r.message).toBe(NO_DATABASE_MESSAGE);
      expect(r.cms).toEqual({ version: '6.4.1', vulnerabilities: [] });
      expect(r.plugins).toEqual([{ slug: 'akismet', version: '5.0', vulnerabilities: [] }]);
      expect(r.summary).toEqual({ total_vulnerabilities: 0, critical: 0, high: 0, medium: 0, low: 0 });
      expect(r.attribution.license).toContain('Copyright 2012-2025 Defiant Inc.');
      db.close();
    });
  });
});

describe('VulnDb.import from a file', () => {
  it('imports the sample feed and records source, variant, time, counts, sha256; a reopen sees the same', async () => {
    await withTempDir(async (dir) => {
      const dbDir = join(dir, 'vulndb');
      const db = await VulnDb.open(dbDir);
      const result = await db.import(SAMPLE_FEED, { now: () => new Date('2026-11-22T05:30:00Z') });
      const bytes = await readFile(SAMPLE_FEED);
      expect(result.status).toMatchObject({
        loaded: true,
        source: SAMPLE_FEED,
        source_kind: 'file',
        variant: { api: 'unknown', feed: 'production' },
        imported_at: '2026-11-22T05:30:00.000Z',
        records: 40,
        skipped: 0,
        duplicates: 0,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
      });
      VulnDbStatusSchema.parse(db.status());
      expect(result.skipped_sample).toEqual([]);
      db.close();

      const reopened = await VulnDb.open(dbDir);
      expect(reopened.status()).toEqual(result.status);
      expect(checkCore(reopened, '6.4.1').sort()).toEqual([ID['core-objinj'], ID['core-nav-xss']].sort());
      reopened.close();
    });
  });

  it('skips and counts bad records, keeps unknown fields harmlessly, drops unusable ranges', async () => {
    await withTempDir(async (dir) => {
      const feed = await sample();
      const good = feed[ID['core-nav-xss']];
      const sw = (good.software as Record<string, unknown>[])[0];
      const bad: Feed = {
        'no-id': { ...good, id: undefined },
        'empty-title': { ...good, id: 'x1', title: '' },
        'no-software': { ...good, id: 'x2', software: [] },
        'bad-type': { ...good, id: 'x3', software: [{ ...sw, type: 'mu-plugin' }] },
        'no-usable-range': {
          ...good,
          id: 'x4',
          software: [{ ...sw, affected_versions: { a: { from_version: '', from_inclusive: true, to_version: '1.0', to_inclusive: true }, b: { from_version: 1, to_version: '2' } } }],
        },
        'not-an-object': [] as unknown as Record<string, unknown>,
      };
      // One usable range survives beside an unusable one; extra unknown fields are accepted.
      const partly = {
        ...good,
        id: 'partly-usable',
        extra_field: { anything: true },
        copyrights: [],
        software: [{ ...sw, slug: 'Partly-Plugin', type: 'plugin', affected_versions: { bad: { from_version: null, to_version: '9' }, ok: { from_version: '*', from_inclusive: false, to_version: '2.0', to_inclusive: true } } }],
      };
      const path = join(dir, 'feed.json');
      await writeFile(path, JSON.stringify({ ...bad, ...feed, 'partly-usable': partly }));
      const skipped: string[] = [];
      const db = await VulnDb.open(join(dir, 'vulndb'));
      const result = await db.import(path, { onSkip: (s) => skipped.push(`${s.key}: ${s.reason}`) });
      expect(result.status).toMatchObject({ records: 41, skipped: 6 });
      expect(skipped).toHaveLength(6);
      expect(result.skipped_sample.map((s) => s.key)).toEqual(Object.keys(bad));
      expect(skipped.join('\n')).toMatch(/id is missing/);
      expect(skipped.join('\n')).toMatch(/title is missing or empty/);
      expect(skipped.join('\n')).toMatch(/"mu-plugin" is not core, plugin or theme/);
      expect(skipped.join('\n')).toMatch(/no software item has a usable version range/);

      const parsed = db.parseCheckRequest({ cms_version: '6.6.1', plugins: [{ slug: 'partly-plugin', version: '1.5' }] });
      const r = db.check((parsed as { ok: true; request: never }).request);
      expect(r.plugins[0].vulnerabilities.map((v) => [v.id, v.copyrights])).toEqual([['partly-usable', {}]]);
      db.close();
    });
  });

  it('keeps the later of two records with the same id', async () => {
    await withTempDir(async (dir) => {
      const feed = await sample();
      const rec = feed[ID['core-nav-xss']];
      // Hand-written JSON with a repeated key: the later record moves the range to 9.x.
      const later = { ...rec, title: 'later', software: [{ ...(rec.software as object[])[0], affected_versions: { x: { from_version: '9.0', from_inclusive: true, to_version: '9.1', to_inclusive: true } } }] };
      const text = `{${JSON.stringify(ID['core-nav-xss'])}: ${JSON.stringify(rec)}, ${JSON.stringify(ID['core-nav-xss'])}: ${JSON.stringify(later)}}`;
      const path = join(dir, 'dup.json');
      await writeFile(path, text);
      const db = await VulnDb.open(join(dir, 'vulndb'));
      const { status } = await db.import(path);
      expect(status).toMatchObject({ records: 1, duplicates: 1 });
      expect(checkCore(db, '6.4.1')).toEqual([]);
      expect(checkCore(db, '9.0.5')).toEqual([ID['core-nav-xss']]);
      db.close();
    });
  });

  it('rejects a truncated file and keeps the old database, leaving nothing behind', async () => {
    await withTempDir(async (dir) => {
      const dbDir = join(dir, 'vulndb');
      const db = await VulnDb.open(dbDir);
      await db.import(SAMPLE_FEED);
      const before = db.status();
      const bytes = await readFile(SAMPLE_FEED);
      for (const cut of [1, 5000, Math.floor(bytes.length / 2), bytes.length - 2]) {
        const path = join(dir, `cut-${cut}.json`);
        await writeFile(path, bytes.subarray(0, cut));
        const err = await expectImportError(db.import(path), 'truncated');
        expect(err.message).toMatch(/truncated/);
      }
      expect(db.status()).toEqual(before);
      expect(checkCore(db, '5.8.2').sort()).toEqual([ID['core-objinj'], ID['core-sqli']].sort());
      expect(await leftovers(dbDir)).toEqual([]);
      db.close();
      const reopened = await VulnDb.open(dbDir);
      expect(reopened.status()).toEqual(before);
      reopened.close();
    });
  });

  it('rejects a file with no valid record, a non-object, invalid JSON and a missing file, keeping the old database', async () => {
    await withTempDir(async (dir) => {
      const dbDir = join(dir, 'vulndb');
      const db = await VulnDb.open(dbDir);
      await db.import(SAMPLE_FEED);
      const before = db.status();
      const write = async (name: string, text: string) => {
        await writeFile(join(dir, name), text);
        return join(dir, name);
      };
      await expectImportError(db.import(await write('empty-object.json', '{}')), 'no_valid_records');
      const allBad = await expectImportError(db.import(await write('all-bad.json', '{"a": {"id": "a"}, "b": 5}')), 'no_valid_records');
      expect(allBad.message).toMatch(/all 2 records failed validation/);
      await expectImportError(db.import(await write('array.json', '[]')), 'not_json_object');
      await expectImportError(db.import(await write('empty.json', '')), 'not_json_object');
      await expectImportError(db.import(await write('garbage.json', '{"a": {"id": "a",, }}')), 'invalid_json');
      await expectImportError(db.import(await write('trailing.json', '{"a": 1} {')), 'invalid_json');
      await expectImportError(db.import(join(dir, 'missing.json')), 'invalid_source');
      await expectImportError(db.import(dir), 'invalid_source');
      await expectImportError(db.import('ftp://example.invalid/feed.json'), 'invalid_source');
      expect(db.status()).toEqual(before);
      expect(await leftovers(dbDir)).toEqual([]);
      db.close();
    });
  });

  it('replaces the whole database on a new import: old records are gone, one generation remains', async () => {
    await withTempDir(async (dir) => {
      const dbDir = join(dir, 'vulndb');
      const db = await VulnDb.open(dbDir);
      await db.import(SAMPLE_FEED);
      const feed = await sample();
      const path = join(dir, 'small.json');
      await writeFile(path, JSON.stringify({ [ID['core-sqli']]: feed[ID['core-sqli']] }));
      const { status } = await db.import(path);
      expect(status).toMatchObject({ records: 1 });
      expect(checkCore(db, '5.8.2')).toEqual([ID['core-sqli']]);
      expect((await readdir(dbDir)).filter((n) => n.startsWith('gen-'))).toHaveLength(1);
      expect(await leftovers(dbDir)).toEqual([]);
      db.close();
    });
  });

  it('removes leftovers of a crashed import at open and ignores them until then', async () => {
    await withTempDir(async (dir) => {
      const dbDir = join(dir, 'vulndb');
      const db = await VulnDb.open(dbDir);
      await db.import(SAMPLE_FEED);
      db.close();
      await mkdir(join(dbDir, '.import-crashed'));
      await writeFile(join(dbDir, '.import-crashed', 'records.jsonl'), 'partial');
      await mkdir(join(dbDir, 'gen-orphan'));
      const reopened = await VulnDb.open(dbDir);
      expect(reopened.status()).toMatchObject({ loaded: true, records: 40 });
      expect(await leftovers(dbDir)).toEqual([]);
      reopened.close();
    });
  });

  it('opens a damaged database as not loaded, saying why, and a new import repairs it', async () => {
    await withTempDir(async (dir) => {
      const dbDir = join(dir, 'vulndb');
      const db = await VulnDb.open(dbDir);
      await db.import(SAMPLE_FEED);
      db.close();
      const gen = (await readFile(join(dbDir, 'CURRENT'), 'utf8')).trim();
      await writeFile(join(dbDir, gen, 'index.json'), '{"format": 1, "records": [');
      const damaged = await VulnDb.open(dbDir);
      const status = VulnDbStatusSchema.parse(damaged.status());
      expect(status).toMatchObject({ loaded: false, error: expect.stringMatching(/cannot be loaded.*import the feed again/) });
      const parsed = damaged.parseCheckRequest({ cms_version: '6.4.1' });
      expect(damaged.check((parsed as { ok: true; request: never }).request).message).toBe(NO_DATABASE_MESSAGE);
      await damaged.import(SAMPLE_FEED);
      expect(damaged.status()).toMatchObject({ loaded: true, records: 40 });
      expect(await leftovers(dbDir)).toEqual([]);
      damaged.close();

      await writeFile(join(dbDir, 'CURRENT'), '../../etc\n');
      const badPointer = await VulnDb.open(dbDir);
      expect(badPointer.status()).toMatchObject({ loaded: false, error: expect.stringMatching(/not a generation directory/) });
      badPointer.close();
    });
  });

  it('lets a read-only opener (a cluster worker) follow imports with reload(), never importing or cleaning up', async () => {
    await withTempDir(async (dir) => {
      const dbDir = join(dir, 'vulndb');
      const primary = await VulnDb.open(dbDir);
      const worker = await VulnDb.open(dbDir, { readOnly: true });
      expect(await worker.reload()).toBe(false);
      await primary.import(SAMPLE_FEED);
      await mkdir(join(dbDir, '.import-in-progress-elsewhere'));
      expect(worker.status()).toEqual({ loaded: false });
      expect(await worker.reload()).toBe(true);
      expect(worker.status()).toEqual(primary.status());
      expect(await worker.reload()).toBe(false);
      expect(checkCore(worker, '5.8.2').sort()).toEqual([ID['core-objinj'], ID['core-sqli']].sort());
      await expectImportError(worker.import(SAMPLE_FEED), 'read_only');
      const again = await VulnDb.open(dbDir, { readOnly: true });
      expect(await readdir(dbDir)).toContain('.import-in-progress-elsewhere');
      // The primary replaces the generation and deletes the old one; the worker still answers from
      // its open file until it reloads.
      const feed = await sample();
      const path = join(dir, 'small.json');
      await writeFile(path, JSON.stringify({ [ID['core-sqli']]: feed[ID['core-sqli']] }));
      await primary.import(path);
      expect(checkCore(worker, '6.4.1').sort()).toEqual([ID['core-objinj'], ID['core-nav-xss']].sort());
      expect(await worker.reload()).toBe(true);
      expect(checkCore(worker, '6.4.1')).toEqual([]);
      for (const db of [primary, worker, again]) db.close();
    });
  });

  it('reports an upload that failed before the import read it as aborted, and nothing is left uncaught', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      await db.import(SAMPLE_FEED);
      const before = db.status();
      const broken = new Readable({ read() {} });
      broken.push((await readFile(SAMPLE_FEED)).subarray(0, 30_000));
      // Destroyed before the importer reads a byte: its 'error' is emitted on the next tick, while
      // the import is still making its work dir (under load, the mid-way test below was this case).
      broken.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      const err = await expectImportError(db.import(broken), 'aborted');
      expect(err.message).toMatch(/upload stopped/);
      expect(db.status()).toEqual(before);
      expect(await leftovers(join(dir, 'vulndb'))).toEqual([]);
      db.close();
    });
  });

  it('reports a stream that fails mid-way as an aborted upload, keeping the database', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      await db.import(SAMPLE_FEED);
      const before = db.status();
      const bytes = await readFile(SAMPLE_FEED);
      const broken = new Readable({ read() {} });
      broken.push(bytes.subarray(0, 30_000));
      setTimeout(() => broken.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })), 10);
      const err = await expectImportError(db.import(broken), 'aborted');
      expect(err.message).toMatch(/upload stopped/);
      expect(db.status()).toEqual(before);
      expect(await leftovers(join(dir, 'vulndb'))).toEqual([]);
      db.close();
    });
  });

  it('refuses a second import while one runs', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      const bytes = await readFile(SAMPLE_FEED);
      // A stream that delivers half, then waits: the first import is certainly running.
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let reading!: () => void;
      const waiting = new Promise<void>((r) => (reading = r));
      const slow = Readable.from(
        (async function* () {
          yield bytes.subarray(0, 1000);
          reading(); // the import has taken the first half and asks for more
          await gate;
          yield bytes.subarray(1000);
        })(),
      );
      const first = db.import(slow, { label: 'upload' });
      await waiting;
      await expectImportError(db.import(SAMPLE_FEED), 'import_in_progress');
      release();
      const { status } = await first;
      expect(status).toMatchObject({ loaded: true, source: 'upload', source_kind: 'stream', records: 40 });
      db.close();
    });
  });

  it('reads a scanner-format feed: minimal records, severity unknown, variant scanner', async () => {
    await withTempDir(async (dir) => {
      const feed = await sample();
      const scanner: Feed = {};
      for (const [id, r] of Object.entries(feed)) {
        scanner[id] = { id: r.id, title: r.title, software: r.software, informational: r.informational, references: r.references, published: r.published, copyrights: r.copyrights };
      }
      const path = join(dir, 'v2-scanner.json');
      await writeFile(path, JSON.stringify(scanner));
      const db = await VulnDb.open(join(dir, 'vulndb'));
      const { status } = await db.import(path);
      expect(status).toMatchObject({ records: 40, variant: { api: 'v2', feed: 'scanner' } });
      const parsed = db.parseCheckRequest({ cms_version: '6.4.1' });
      const r = db.check((parsed as { ok: true; request: never }).request);
      expect(r.cms.vulnerabilities.map((v) => v.severity)).toEqual(['unknown', 'unknown']);
      expect(r.cms.vulnerabilities[0]).toMatchObject({ description: null, cvss: null, cve: null, cwe: null, updated: null });
      expect(r.summary).toEqual({ total_vulnerabilities: 2, critical: 0, high: 0, medium: 0, low: 0 });
      db.close();
    });
  });

  it('takes the attribution from the most recently updated record, and builds a url when references have none', async () => {
    await withTempDir(async (dir) => {
      const feed = await sample();
      const newest = structuredClone(feed[ID['core-nav-xss']]);
      newest.updated = '2026-06-01T12:00:00+02:00';
      newest.references = ['https://example.com/advisory'];
      (newest.copyrights as { defiant: { notice: string } }).defiant.notice = 'Copyright 2012-2026 Defiant Inc.';
      const older = structuredClone(feed[ID['core-sqli']]);
      older.updated = null;
      (older.copyrights as { defiant: { notice: string } }).defiant.notice = 'Copyright 1999 Someone Else';
      const path = join(dir, 'attr.json');
      await writeFile(path, JSON.stringify({ [ID['core-sqli']]: older, [ID['core-nav-xss']]: newest }));
      const db = await VulnDb.open(join(dir, 'vulndb'));
      await db.import(path);
      const parsed = db.parseCheckRequest({ cms_version: '6.4.1' });
      const r = db.check((parsed as { ok: true; request: never }).request);
      expect(r.attribution.license).toContain('Copyright 2012-2026 Defiant Inc.');
      expect(r.attribution.license).toContain('(https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/)');
      expect(r.cms.vulnerabilities[0].url).toBe(`https://www.wordfence.com/threat-intel/vulnerabilities/id/${ID['core-nav-xss']}`);
      expect(r.cms.vulnerabilities[0].updated).toBe('2026-06-01T10:00:00Z');
      db.close();
    });
  });
});
