// The daemon setting vulndb_refresh_url: a daemon started with it (here through its environment
// variable) fetches the feed from a local HTTP server by itself, and `wafctl vulndb refresh` fetches
// it again on demand; a bad URL setting stops the start with a message naming it.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll } from './daemon-harness.js';

const FEED = join(import.meta.dirname, '..', 'daemon', 'vulndb', 'fixtures', 'sample-feed.json');
let server: Server;
let url: string;
let served = 0;

beforeAll(async () => {
  const feed = await readFile(FEED);
  server = createServer((_req, res) => {
    served++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(feed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/feed.json`;
});
afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}, 60_000);

describe('vulndb_refresh_url', () => {
  it('imports the feed by itself after start, and again on `wafctl vulndb refresh`', async () => {
    const d = await newSandbox();
    d.box.env.WAFCTL_VULNDB_REFRESH_URL = url;
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code, start.stderr).toBe(0);
    let status: { loaded: boolean; records?: number } = { loaded: false };
    for (let tries = 0; tries < 100 && !status.loaded; tries++) {
      status = JSON.parse((await d.wafctl('--json', 'vulndb', 'status')).stdout);
      if (!status.loaded) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toMatchObject({ loaded: true, records: 40 });
    const before = served;
    const refresh = await d.wafctl('vulndb', 'refresh');
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(served).toBeGreaterThan(before);
  }, 120_000);

  it('refuses to start with a URL that is not http(s)', async () => {
    const d = await newSandbox();
    d.box.env.WAFCTL_VULNDB_REFRESH_URL = 'ftp://example.test/feed.json';
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/WAFCTL_VULNDB_REFRESH_URL: must be an http\(s\) URL/);
  }, 60_000);
});
