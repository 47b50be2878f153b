// Every error an import or refresh of the vulnerability database can answer, from a real daemon
// over its real admin socket: the code and status of the one error table (shared/errors.ts), in
// the envelope every admin route speaks; the admin client the CLI uses keeps the code; and the
// CLI prints `error: <code>: <message>` and exits 1. Each failure leaves the database as it was.
import { readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../shared/admin-client.js';
import { ERRORS, type ErrorCode } from '../../shared/errors.js';
import { SAMPLE_FEED } from '../daemon/vulndb/helpers.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

let d: E2eDaemon;
let socketPath: string;
let admin: AdminClient;
let feed: Buffer;

beforeAll(async () => {
  feed = await readFile(SAMPLE_FEED);
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  socketPath = join(d.box.dataDir, 'wafctl.sock');
  admin = new AdminClient(socketPath);
  const imported = await d.wafctl('vulndb', 'import', SAMPLE_FEED);
  expect(imported.code, imported.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await admin?.close();
  await stopAll();
}, 60_000);

interface Answer { status: number; body: { success?: boolean; error?: string; message?: string } }

/** One request on its own connection: a refused upload is answered before its body is sent, and
 *  that connection is not one to reuse. */
async function call(options: Omit<Dispatcher.RequestOptions, 'origin'>): Promise<Answer> {
  const client = new Client('http://localhost', { socketPath });
  try {
    const res = await client.request(options);
    return { status: res.statusCode, body: (await res.body.json()) as Answer['body'] };
  } finally {
    await client.destroy();
  }
}

function upload(bytes: Buffer | string): Promise<Answer> {
  return call({ method: 'PUT', path: '/admin/vulndb/import', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
}

function post(path: string, body?: unknown): Promise<Answer> {
  return call({
    method: 'POST',
    path,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The answer is the table's: the code at its status, in the envelope, with a message. */
function expectTableError(answer: Answer, code: ErrorCode): void {
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: false, error: code });
  expect(answer.status, code).toBe(ERRORS[code].status);
  expect(answer.body.message).toBeTruthy();
}

async function records(): Promise<number | undefined> {
  const status = await admin.vulndbStatus();
  return status.loaded ? status.records : undefined;
}

describe('vulndb errors over the admin socket', () => {
  it('a bad upload: not_json_object, invalid_json, truncated, no_valid_records (422), the database kept', async () => {
    const before = await records();
    expect(before).toBe(40);
    expectTableError(await upload('[1,2,3]'), 'not_json_object');
    expectTableError(await upload('{"a": {"id": "a",, }}'), 'invalid_json');
    expectTableError(await upload(feed.subarray(0, 50_000)), 'truncated');
    expectTableError(await upload('{}'), 'no_valid_records');
    expect(await records()).toBe(before);
  });

  it('a record over the per-record ceiling: record_too_large (422)', async () => {
    const huge = `{"big": {"id": "big", "title": "${'x'.repeat(17 * 1024 * 1024)}"}}`;
    expectTableError(await upload(huge), 'record_too_large');
    expect(await records()).toBe(40);
  });

  it('a source the daemon cannot use: invalid_source (422), fetch_failed (502)', async () => {
    expectTableError(await post('/admin/vulndb/import', { source: join(d.box.home, 'missing.json') }), 'invalid_source');
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    expectTableError(await post('/admin/vulndb/import', { source: 'http://127.0.0.1:1/feed.json' }), 'fetch_failed');
  });

  it('a refresh with no refresh URL configured: refresh_not_configured (409)', async () => {
    expectTableError(await post('/admin/vulndb/refresh'), 'refresh_not_configured');
  });

  it('a second import while one runs: import_in_progress (409); the first then finishes', async () => {
    // The first import's body stays open, so it is still running while the second one asks. It
    // opens with `{` and 4 MiB of blanks (valid JSON whitespace), far more than the socket buffers
    // hold: once the blanks have been taken from our stream, the daemon's importer is reading
    // them, so the first import is running for sure (no clock, no race with the probe).
    const open = feed.indexOf('{') + 1;
    const held = new PassThrough();
    held.write(feed.subarray(0, open));
    const blanksTaken = new Promise<void>((resolve) => held.write(Buffer.alloc(4 << 20, 0x20), () => resolve()));
    const first = upload(held as unknown as Buffer);
    await blanksTaken;
    expectTableError(await post('/admin/vulndb/import', { source: join(d.box.home, 'missing.json') }), 'import_in_progress');
    held.end(feed.subarray(open));
    expect(await first).toMatchObject({ status: 200, body: { success: true } });
    expect(await records()).toBe(40);
  });

  it('an upload cut half-way (aborted: its 503 has no one left to read it) changes nothing and ends the import', async () => {
    // The request promises more bytes than it sends, then the connection goes: the daemon meets
    // the end of the upload early. The table's 503 `aborted` goes to a closed connection, so what
    // a client can see is the aftermath: the database kept, and the next import not refused as
    // import_in_progress (each probe is one round trip, as above).
    // (As when the CLI is killed mid-upload: the connection goes once the first bytes are written.)
    await new Promise<void>((resolve) => {
      const socket = connect({ path: socketPath });
      socket.on('error', () => undefined); // the daemon may close first: EPIPE/ECONNRESET are expected
      socket.on('close', () => resolve());
      socket.write(`PUT /admin/vulndb/import HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/octet-stream\r\ncontent-length: ${feed.length}\r\n\r\n`);
      socket.write(feed.subarray(0, 4096), () => socket.destroy());
    });
    const missing = join(d.box.home, 'missing.json');
    let probe = await post('/admin/vulndb/import', { source: missing });
    for (let tries = 0; probe.body.error === 'import_in_progress' && tries < 10_000; tries++) probe = await post('/admin/vulndb/import', { source: missing });
    expectTableError(probe, 'invalid_source');
    expect(await records()).toBe(40);
  });
});

describe('vulndb errors through the admin client and the CLI', () => {
  it('the admin client keeps the table code', async () => {
    await expect(admin.vulndbImportFrom(join(d.box.home, 'missing.json'))).rejects.toMatchObject({ name: 'WafctlError', code: 'invalid_source' });
    await expect(admin.vulndbRefresh()).rejects.toMatchObject({ code: 'refresh_not_configured' });
    await expect(admin.vulndbImportUpload((async function* () { yield '{}'; })(), '/tmp/empty.json')).rejects.toMatchObject({ code: 'no_valid_records' });
  });

  it('wafctl prints the code and the message, and exits 1', async () => {
    const cut = join(d.box.home, 'cut.json');
    await writeFile(cut, feed.subarray(0, 50_000));
    const truncated = await d.wafctl('vulndb', 'import', cut);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(/^error: truncated: /m);
    const refresh = await d.wafctl('vulndb', 'refresh');
    expect(refresh.code).toBe(1);
    expect(refresh.stderr).toMatch(/^error: refresh_not_configured: no refresh URL is configured.*\nhint: import from a URL instead/m);
    const source = await d.wafctl('vulndb', 'import', 'http://127.0.0.1:1/feed.json');
    expect(source.code).toBe(1);
    expect(source.stderr).toMatch(/^error: fetch_failed: /m);
  });
});
