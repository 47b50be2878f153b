// Import over HTTP from a real local server serving the sample feed, and the periodic refresher.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VulnDb } from '../../../daemon/vulndb/vulndb.js';
import { VulnDbError } from '../../../daemon/vulndb/vulndb-error.js';
import { VulnDbStatusSchema } from '../../../shared/schemas/vulndb.js';
import { SAMPLE_FEED, withTempDir } from './helpers.js';

let server: Server;
let base: string;
let feed: Buffer;
const seen: { url: string; authorization?: string }[] = [];
let serveCount = 0;
let etag = 'v1';
const conditional: (string | string[] | undefined)[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
  const path = (req.url ?? '').split('?')[0];
  if (path === '/api/intelligence/v3/vulnerabilities/production') {
    if (req.headers.authorization !== 'Bearer test-key') {
      res.writeHead(401).end('{"message":"unauthorized"}');
      return;
    }
    serveCount++;
    res.writeHead(200, { 'content-type': 'application/json' });
    // Several writes: the client sees a body in pieces, as from a real download.
    for (let i = 0; i < feed.length; i += 16384) res.write(feed.subarray(i, i + 16384));
    res.end();
  } else if (path === '/etag/v2/vulnerabilities/production') {
    conditional.push(req.headers['if-none-match']);
    if (req.headers['if-none-match'] === `"${etag}"`) {
      res.writeHead(304).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', etag: `"${etag}"`, 'last-modified': 'Sun, 22 Nov 2026 04:00:00 GMT' }).end(feed);
  } else if (path === '/api/intelligence/v2/vulnerabilities/scanner') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(feed);
  } else if (path === '/cut') {
    // Promises the whole feed, sends half, then drops the connection.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(feed.length) });
    res.write(feed.subarray(0, feed.length >> 1), () => res.socket?.destroy());
  } else if (path === '/half') {
    // No length announced: the body simply ends early, as a truncated upload would.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(feed.subarray(0, feed.length >> 1));
  } else {
    res.writeHead(404).end('not here');
  }
}

beforeAll(async () => {
  feed = await readFile(SAMPLE_FEED);
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(VulnDbError);
  return (err as VulnDbError).code;
}

describe('VulnDb.import from a URL', () => {
  it('downloads with the bearer key, streams, records the variant and never stores the key or query', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      const url = `${base}/api/intelligence/v3/vulnerabilities/production?token=secret`;
      const { status } = await db.import(url, { apiKey: 'test-key' });
      expect(status).toMatchObject({
        loaded: true,
        source: `${base}/api/intelligence/v3/vulnerabilities/production`,
        source_kind: 'url',
        variant: { api: 'v3', feed: 'production' },
        records: 40,
        bytes: feed.length,
      });
      expect(seen.at(-1)?.authorization).toBe('Bearer test-key');
      expect(JSON.stringify(db.status())).not.toContain('secret');
      expect(JSON.stringify(db.status())).not.toContain('test-key');
      const v2 = await db.import(new URL(`${base}/api/intelligence/v2/vulnerabilities/scanner`));
      expect(v2.status).toMatchObject({ variant: { api: 'v2', feed: 'scanner' } });
      db.close();
    });
  });

  it('fails cleanly on HTTP errors, a refused connection, a cut download and a short body, keeping the old database', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      await db.import(`${base}/api/intelligence/v2/vulnerabilities/scanner`);
      const before = db.status();
      const unauthorized = await db.import(`${base}/api/intelligence/v3/vulnerabilities/production`).catch((e: VulnDbError) => e);
      expect(unauthorized).toMatchObject({ code: 'fetch_failed' });
      expect((unauthorized as Error).message).toMatch(/HTTP 401.*API key/);
      expect(await codeOf(db.import(`${base}/nothing`))).toBe('fetch_failed');
      expect(await codeOf(db.import('http://127.0.0.1:1/feed.json'))).toBe('fetch_failed');
      expect(await codeOf(db.import(`${base}/cut`))).toBe('fetch_failed');
      expect(await codeOf(db.import(`${base}/half`))).toBe('truncated');
      expect(db.status()).toEqual(before);
      db.close();
    });
  });
});

describe('VulnDb refresher', () => {
  it('refreshes from the URL on its interval and reports the attempts in status', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      const results: boolean[] = [];
      const start = serveCount;
      db.startRefresh({
        url: `${base}/api/intelligence/v3/vulnerabilities/production`,
        apiKey: 'test-key',
        intervalMs: 1000,
        initialDelayMs: 10,
        onResult: (r) => results.push(r.ok),
      });
      const deadline = Date.now() + 10_000;
      while (results.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(results).toEqual([true, true]);
      expect(serveCount - start).toBe(2);
      const status = VulnDbStatusSchema.parse(db.status());
      expect(status).toMatchObject({ loaded: true, records: 40, refresh: { interval_s: 1, last_error: null } });
      expect((status as { refresh: { last_success_at: string | null } }).refresh.last_success_at).not.toBeNull();
      db.close();
    });
  });

  it('keeps the database and reports the error when a refresh fails', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      await db.import(SAMPLE_FEED);
      const before = db.status();
      db.startRefresh({ url: `${base}/half`, intervalMs: 60_000 });
      await db.refreshNow();
      const status = db.status() as typeof before & { refresh: { last_error: string; next_at: string } };
      expect(status.refresh.last_error).toMatch(/truncated/);
      expect(status.refresh.next_at).not.toBeNull();
      const { refresh: _r, ...rest } = status;
      expect(rest).toEqual(before);
      db.close();
    });
  });

  it('refreshes conditionally: an unchanged feed (304) keeps the database without downloading it', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      const url = `${base}/etag/v2/vulnerabilities/production`;
      const first = await db.import(url);
      expect(first.status).toMatchObject({ etag: '"v1"', last_modified: 'Sun, 22 Nov 2026 04:00:00 GMT' });
      const results: (boolean | null)[] = [];
      db.startRefresh({ url, intervalMs: 60_000, onResult: (r) => results.push(r.ok ? r.result !== null : null) });
      await db.refreshNow();
      expect(conditional.at(-1)).toBe('"v1"');
      expect(results).toEqual([false]); // ok, nothing imported
      const status = VulnDbStatusSchema.parse(db.status());
      expect(status).toMatchObject({ imported_at: first.status.loaded && first.status.imported_at, refresh: { last_result: 'not_modified', last_error: null } });
      etag = 'v2';
      await db.refreshNow();
      expect(results).toEqual([false, true]);
      expect(db.status()).toMatchObject({ etag: '"v2"', refresh: { last_result: 'imported' } });
      // An explicit import is never conditional.
      conditional.length = 0;
      await db.import(url);
      expect(conditional).toEqual([undefined]);
      db.close();
    });
  });

  it('rejects a bad refresh configuration', async () => {
    await withTempDir(async (dir) => {
      const db = await VulnDb.open(join(dir, 'vulndb'));
      expect(() => db.startRefresh({ url: 'not a url', intervalMs: 60_000 })).toThrow();
      expect(() => db.startRefresh({ url: 'file:///etc/passwd', intervalMs: 60_000 })).toThrow(/http/);
      expect(() => db.startRefresh({ url: `${base}/x`, intervalMs: 10 })).toThrow(/at least/);
      expect(db.status()).toEqual({ loaded: false });
      db.close();
    });
  });
});
