// End to end: the real daemon, `wafctl vulndb import|status` over the admin socket (the
// feed streamed as the request body), `wafctl vuln check` over HTTPS with the site key, a bad
// feed refused with the old database kept, and the same check answered over raw HTTPS.
// One daemon for the file, with the sample feed imported before any test (each test that imports
// leaves a database of the same records); the test of a daemon before any import has one of its own.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VulnCheckResponseSchema, VulnDbImportResultSchema, VulnDbStatusSchema, type VulnDbStatus } from '../../shared/schemas/vulndb.js';
import { ID, SAMPLE_FEED } from '../daemon/vulndb/helpers.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

let d: E2eDaemon;
let apiUrl: string;
let agent: Agent;
let key: string;
let feed: Buffer;
let feedServer: Server | undefined;

async function json<T>(...args: string[]): Promise<T> {
  return jsonOf<T>(d, ...args);
}

async function jsonOf<T>(daemon: E2eDaemon, ...args: string[]): Promise<T> {
  const result = await daemon.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function postCheck(body: unknown): Promise<{ status: number; body: any }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL('/api/v1/wp/vulnerabilities/check', apiUrl),
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-service-key': key, 'content-length': String(Buffer.byteLength(text)) } },
      (res) => {
        let answer = '';
        res.on('data', (chunk) => (answer += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(answer) }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const withoutTime = (response: Record<string, unknown>) => ({ ...response, checked_at: '(time)' });

/** A running daemon in a fresh sandbox with a site whose key `vuln check` uses; no database yet. */
async function startedWithSite(): Promise<{ daemon: E2eDaemon; apiUrl: string; ca: string; key: string }> {
  const daemon = await newSandbox();
  const start = await daemon.wafctl('daemon', 'start', ...(await quickStartFlags(daemon.box)));
  expect(start.code, start.stderr).toBe(0);
  const status = await jsonOf<{ api_url: string; ca_file: string }>(daemon, 'daemon', 'status');
  // site add saves the key as the login profile, which `vuln check` uses.
  const added = await jsonOf<{ api_key: string }>(daemon, 'site', 'add', 'blog.example.test', '--origin', 'http://127.0.0.1:9');
  return { daemon, apiUrl: status.api_url, ca: await readFile(status.ca_file, 'utf8'), key: added.api_key };
}

beforeAll(async () => {
  feed = await readFile(SAMPLE_FEED);
  const started = await startedWithSite();
  ({ daemon: d, apiUrl, key } = started);
  agent = new Agent({ ca: started.ca, keepAlive: false });
  const imported = await d.wafctl('vulndb', 'import', SAMPLE_FEED);
  expect(imported.code, imported.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  if (feedServer) {
    feedServer.closeAllConnections();
    await new Promise((r) => feedServer!.close(r));
  }
  await stopAll();
}, 60_000);

describe('the vulnerability database through wafctl and the daemon', () => {
  it('before any import: status says nothing is loaded and a check fails with no_database', async () => {
    const { daemon: fresh } = await startedWithSite();
    expect(await jsonOf(fresh, 'vulndb', 'status')).toEqual({ loaded: false });
    const check = await fresh.wafctl('vuln', 'check', '--cms-version', '6.4.1');
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/^error: no_database: /m);
  }, 120_000);

  it('imports the sample feed streamed over the admin socket and reports it', async () => {
    const result = await d.wafctl('vulndb', 'import', SAMPLE_FEED);
    expect(result.code, result.stderr).toBe(0);
    const sha256 = createHash('sha256').update(feed).digest('hex');
    expect(result.stdout).toMatch(/^records\s+40$/m);
    expect(result.stdout).toMatch(/^skipped\s+0$/m);
    expect(result.stdout).toContain(sha256);
    expect(result.stdout).toMatch(/^variant\s+unknown production$/m);
    expect(result.stderr).toContain('imported 40 records');

    const status = VulnDbStatusSchema.parse(await json('vulndb', 'status'));
    expect(status).toMatchObject({ loaded: true, source: SAMPLE_FEED, source_kind: 'stream', records: 40, skipped: 0, sha256, bytes: feed.length });
  });

  it('vuln check shows the worked example (contact-form-7 5.3.1: critical and high) and --fail-on high exits 3', async () => {
    const args = ['vuln', 'check', '--cms-version', '6.4.1', '--plugin', 'contact-form-7@5.3.1', '--theme', 'astra@4.6.8'];
    const check = await d.wafctl(...args);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^Plugin contact-form-7 5\.3\.1 {2}2 vulnerabilities$/m);
    expect(check.stdout).toMatch(/^ {2}CRITICAL 10\.0 /m);
    expect(check.stdout).toContain(ID['cf7-file-upload']);
    expect(check.stdout).toContain(ID['cf7-editor-upload']);
    expect(check.stdout).toMatch(/^Theme astra 4\.6\.8 {2}1 vulnerability$/m);
    expect(check.stdout).toMatch(/^Vulnerability data: Wordfence Intelligence .*Defiant/m);

    const gated = await d.wafctl(...args, '--fail-on', 'high');
    expect(gated.code).toBe(3);
    expect(gated.stderr).toContain('vulnerabilities at or above --fail-on high');
    const clean = await d.wafctl('vuln', 'check', '--cms-version', '6.6', '--theme', 'astra@4.6.8', '--fail-on', 'high');
    expect(clean.code, clean.stderr).toBe(0);
  });

  it('answers the same check over HTTPS as through wafctl --json', async () => {
    const body = { cms_version: '5.8.2', plugins: [{ slug: 'contact-form-7', version: '5.3.1' }, { slug: 'woocommerce', version: '5.8.0' }], themes: [{ slug: 'astra', version: '4.6.8' }] };
    const cli = await json<Record<string, unknown>>('vuln', 'check', '--cms-version', '5.8.2', '--plugin', 'contact-form-7@5.3.1', '--plugin', 'woocommerce@5.8.0', '--theme', 'astra@4.6.8');
    const direct = await postCheck(body);
    expect(direct.status).toBe(200);
    const parsed = VulnCheckResponseSchema.parse(direct.body);
    expect(parsed.cms.vulnerabilities.map((v) => v.id).sort()).toEqual([ID['core-objinj'], ID['core-sqli']].sort());
    expect(parsed.summary).toMatchObject({ total_vulnerabilities: 7 });
    expect(withoutTime(cli)).toEqual(withoutTime(direct.body));
  });

  it('refuses a truncated feed and keeps the database it had', async () => {
    const before = VulnDbStatusSchema.parse(await json('vulndb', 'status'));
    const cut = join(d.box.home, 'cut-feed.json');
    await writeFile(cut, feed.subarray(0, Math.floor(feed.length / 2)));
    const result = await d.wafctl('vulndb', 'import', cut);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: truncated: /m);
    expect(result.stdout).toBe('');
    expect(VulnDbStatusSchema.parse(await json('vulndb', 'status'))).toEqual(before);
    const still = await d.wafctl('vuln', 'check', '--cms-version', '6.4.1', '--plugin', 'contact-form-7@5.3.1', '--fail-on', 'critical');
    expect(still.code, 'the old database still answers').toBe(3);
  });

  it('refuses a missing file before calling the daemon, and a bad URL scheme as a usage error', async () => {
    const missing = await d.wafctl('vulndb', 'import', join(d.box.home, 'nowhere.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: file_not_found: /);
    const ftp = await d.wafctl('vulndb', 'import', 'ftp://127.0.0.1/feed.json');
    expect(ftp.code).toBe(2);
  });

  it('imports from a URL the daemon downloads (variant from the path)', async () => {
    feedServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(feed));
    await new Promise<void>((r) => feedServer!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/api/intelligence/v2/vulnerabilities/scanner`;
    const result = VulnDbImportResultSchema.parse(await json('vulndb', 'import', url));
    expect(result.status).toMatchObject({ loaded: true, source: url, source_kind: 'url', records: 40, variant: { api: 'v2', feed: 'scanner' } });
    const status = (await json('vulndb', 'status')) as VulnDbStatus;
    expect(status).toEqual(result.status);
    const refresh = await d.wafctl('vulndb', 'refresh');
    expect(refresh.code).toBe(1);
    expect(refresh.stderr).toMatch(/^error: refresh_not_configured: no refresh URL is configured/m);
  });
});
