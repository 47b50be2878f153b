// The vulndb admin routes on a real unix socket, in a fastify app with the daemon's envelope,
// as the admin server registers them.

import Fastify, { type FastifyInstance } from 'fastify';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installEnvelope } from '../../../daemon/api/envelope.js';
import { vulndbAdminRoutes } from '../../../daemon/admin/routes/vulndb.js';
import { VulnDb } from '../../../daemon/vulndb/vulndb.js';
import { VulnCheckResponseSchema, VulnDbImportResultSchema, VulnDbStatusSchema } from '../../../shared/schemas/vulndb.js';
import { ID, SAMPLE_FEED } from '../vulndb/helpers.js';

let dir: string;
let db: VulnDb;
let app: FastifyInstance;
let client: Client;
let feedServer: Server;
let feedUrl: string;

// The feed server only serves a file; every test gets its own data dir, database and socket, and
// imports what it needs, so none depends on what another imported.
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-vulndb-admin-'));
  db = await VulnDb.open(join(dir, 'vulndb'));
  app = Fastify();
  installEnvelope(app);
  await vulndbAdminRoutes(db)(app);
  const socketPath = join(dir, 'admin.sock');
  await app.listen({ path: socketPath });
  client = new Client('http://localhost', { socketPath });
});

afterEach(async () => {
  await client.close();
  await app.close();
  db.close();
  await rm(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  const feed = await readFile(SAMPLE_FEED);
  feedServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(feed));
  await new Promise<void>((r) => feedServer.listen(0, '127.0.0.1', r));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/api/intelligence/v3/vulnerabilities/production`;
});

afterAll(async () => {
  feedServer.closeAllConnections();
  await new Promise((r) => feedServer.close(r));
});

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await client.request({
    method,
    path,
    headers: body === undefined || typeof (body as { pipe?: unknown }).pipe === 'function' || Buffer.isBuffer(body) ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function' ? (body as Buffer) : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
}

describe('vulndb admin routes', () => {
  it('reports status, then imports an uploaded stream', async () => {
    expect(await call('GET', '/admin/vulndb')).toEqual({ status: 200, body: { success: true, data: { loaded: false } } });
    const res = await call('PUT', '/admin/vulndb/import', createReadStream(SAMPLE_FEED), {
      'content-type': 'application/octet-stream',
      'x-vulndb-source': '/home/me/feed.json',
    });
    expect(res.status).toBe(200);
    const result = VulnDbImportResultSchema.parse(res.body.data);
    expect(result.status).toMatchObject({ loaded: true, source: '/home/me/feed.json', source_kind: 'stream', records: 40 });
    expect(VulnDbStatusSchema.parse((await call('GET', '/admin/vulndb')).body.data)).toEqual(result.status);
  });

  it('refuses a truncated upload with its code, keeping the database', async () => {
    await db.import(SAMPLE_FEED);
    const before = (await call('GET', '/admin/vulndb')).body.data;
    expect(before).toMatchObject({ loaded: true, records: 40 });
    const bytes = await readFile(SAMPLE_FEED);
    const res = await call('PUT', '/admin/vulndb/import', bytes.subarray(0, 50_000), { 'content-type': 'application/octet-stream' });
    expect(res).toMatchObject({ status: 422, body: { success: false, error: 'truncated' } });
    const notObject = await call('PUT', '/admin/vulndb/import', Buffer.from('[1,2,3]'), { 'content-type': 'application/octet-stream' });
    expect(notObject).toMatchObject({ status: 422, body: { error: 'not_json_object' } });
    expect((await call('GET', '/admin/vulndb')).body.data).toEqual(before);
    // the socket still serves after the refused uploads
    expect((await call('GET', '/admin/vulndb')).status).toBe(200);
  });

  it('imports from a URL or an absolute path, and refuses relative paths and bad sources', async () => {
    const url = await call('POST', '/admin/vulndb/import', { source: feedUrl, api_key: 'k' });
    expect(url.status).toBe(200);
    expect(url.body.data.status).toMatchObject({ source_kind: 'url', variant: { api: 'v3', feed: 'production' } });
    const path = await call('POST', '/admin/vulndb/import', { source: SAMPLE_FEED });
    expect(path.body.data.status).toMatchObject({ source_kind: 'file', source: SAMPLE_FEED });
    expect(await call('POST', '/admin/vulndb/import', { source: 'feed.json' })).toMatchObject({ status: 422, body: { error: 'validation_error' } });
    expect(await call('POST', '/admin/vulndb/import', {})).toMatchObject({ status: 422, body: { error: 'validation_error' } });
    expect(await call('POST', '/admin/vulndb/import', { source: join(dir, 'missing.json') })).toMatchObject({ status: 422, body: { error: 'invalid_source' } });
    const empty = join(dir, 'empty.json');
    await writeFile(empty, '{}');
    expect(await call('POST', '/admin/vulndb/import', { source: empty })).toMatchObject({ status: 422, body: { error: 'no_valid_records' } });
    expect(await call('POST', '/admin/vulndb/import', { source: 'http://127.0.0.1:1/feed' })).toMatchObject({ status: 502, body: { error: 'fetch_failed' } });
  });

  it('checks, with the spec 2.7 shape, and refuses a bad body', async () => {
    await db.import(SAMPLE_FEED);
    const res = await call('POST', '/admin/vulndb/check', { cms_version: '6.4.1' });
    expect(res.status).toBe(200);
    const body = VulnCheckResponseSchema.parse(res.body);
    expect(body.cms.vulnerabilities.map((v) => v.id).sort()).toEqual([ID['core-objinj'], ID['core-nav-xss']].sort());
    expect(await call('POST', '/admin/vulndb/check', { cms_version: '' })).toMatchObject({ status: 422, body: { error: 'validation_error' } });
  });

  it('refreshes on demand only when a refresh URL is configured', async () => {
    expect(await call('POST', '/admin/vulndb/refresh')).toMatchObject({ status: 409, body: { success: false, error: 'refresh_not_configured' } });
    db.startRefresh({ url: feedUrl, intervalMs: 3_600_000 });
    const res = await call('POST', '/admin/vulndb/refresh');
    expect(res.status).toBe(200);
    expect(res.body.data.refresh).toMatchObject({ last_result: 'imported', last_error: null });
    db.stopRefresh();
  });
});
