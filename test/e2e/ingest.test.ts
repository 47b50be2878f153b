// End to end: `wafctl ingest` as a real process against the real daemon over HTTPS. Ten
// thousand entries land exactly once; a fault-injecting HTTPS proxy (500s before the daemon sees the
// request, 429s) in front of the daemon cannot make the client lose or duplicate an entry; and a
// daemon killed with SIGKILL mid-ingestion keeps every entry it acknowledged.
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, request as httpsRequest, Agent, type Server } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

interface Status {
  pid: number;
  api_url: string;
  ca_file: string;
}

const HOST = 'ingest.example.test';

/** A running daemon with the site and an ingestion token; its status is read again after a restart. */
interface Fixture {
  d: E2eDaemon;
  status: Status;
  token: string;
  ca: string;
}

let shared: Fixture;
let d: E2eDaemon;
let token: string;
let ca: string;

async function jsonOf<T>(daemon: E2eDaemon, ...args: string[]): Promise<T> {
  const result = await daemon.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

const json = <T>(...args: string[]) => jsonOf<T>(d, ...args);

function wafEvent(uri: string, at = Date.now()) {
  return {
    timestamp_ms: at,
    host: HOST,
    client_ip: '198.51.100.77',
    uri,
    method: 'GET',
    waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-930-APPLICATION-ATTACK-LFI.conf',
    rule_id: '930100',
    severity: 'CRITICAL',
    msg: 'Path Traversal Attack (/../)',
  };
}

/** Every URI a daemon's store holds for a search, paging through /waf-logs (at the daemon's current port). */
async function urisMatching(search: string, f: Fixture = shared): Promise<string[]> {
  const uris: string[] = [];
  for (let page = 1; ; page++) {
    const data = await jsonOf<{ logs: Array<{ uri: string }>; pagination: { total_pages: number } }>(
      f.d, '--server', f.status.api_url, 'logs', '--search', search, '--per-page', '100', '--page', String(page),
    );
    uris.push(...data.logs.map((l) => l.uri));
    if (page >= data.pagination.total_pages) return uris;
  }
}

async function startDaemon(daemon: E2eDaemon): Promise<Status> {
  const start = await daemon.wafctl('daemon', 'start', ...(await quickStartFlags(daemon.box)));
  expect(start.code, start.stderr).toBe(0);
  return jsonOf<Status>(daemon, 'daemon', 'status');
}

/** A daemon of its own in a fresh sandbox, with the site and a token. */
async function newFixture(): Promise<Fixture> {
  const daemon = await newSandbox();
  const status = await startDaemon(daemon);
  const caPem = await readFile(status.ca_file, 'utf8');
  await jsonOf(daemon, 'site', 'add', HOST, '--origin', 'http://127.0.0.1:9');
  const created = await jsonOf<{ token: string }>(daemon, 'token', 'create', 'e2e-ingest');
  return { d: daemon, status, token: created.token, ca: caPem };
}

// One daemon for the tests that each ingest entries of their own (their own URIs, their own kind of
// entry); the test that kills its daemon has one of its own.
beforeAll(async () => {
  shared = await newFixture();
  ({ d, token, ca } = shared);
}, 180_000);

afterAll(() => stopAll(), 60_000);

describe('wafctl ingest', () => {
  it('lands 10,000 NDJSON access entries exactly once', async () => {
    const now = Math.floor(Date.now() / 1000);
    const lines = Array.from({ length: 10_000 }, (_, i) =>
      JSON.stringify({ timestamp: now - (i % 3600), host: HOST, client_ip: `10.0.${i % 200}.${i % 250}`, uri: `/p/${i}`, method: 'GET', status: i % 50 === 0 ? 403 : 200, bytes_sent: 100 }),
    );
    const file = join(d.box.home, 'access.ndjson');
    await writeFile(file, lines.join('\n') + '\n');
    const summary = await json<Record<string, number>>('ingest', 'access', file, '--token', token, '--batch-size', '500');
    expect(summary).toEqual({ read: 10_000, sent: 10_000, accepted: 10_000, rejected: 0, retried: 0 });
    const day = await json<{ total_requests: number; requests_blocked: number }>('analytics');
    expect(day.total_requests).toBe(10_000);
    expect(day.requests_blocked).toBe(200);
  });

  it('reports rejects by input line and exits 1, storing the good entries', async () => {
    const file = join(d.box.home, 'mixed.ndjson');
    const good = JSON.stringify(wafEvent('/mixed/good'));
    await writeFile(file, [good, JSON.stringify({ ...wafEvent('/mixed/bad'), severity: 'HIGH' }), '{"broken": ', JSON.stringify({ ...wafEvent('/mixed/x'), host: 'not-mine.test' }), good].join('\n'));
    const rejects = join(d.box.home, 'rejects.ndjson');
    const run = await d.wafctl('ingest', 'waf', file, '--token', token, '--rejects', rejects);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/5 read, 4 sent, 2 accepted, 3 rejected/);
    const reported = (await readFile(rejects, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { line: number; error: string });
    // In input order: the line that is not JSON (3) between the server's rejects (2, 4), not first.
    expect(reported.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(reported.find((r) => r.line === 2)!.error).toMatch(/^severity: /);
    expect(await urisMatching('/mixed/')).toEqual(['/mixed/good', '/mixed/good']);
  });

  it('refuses a bad token with exit 4 and sends nothing with --dry-run', async () => {
    const file = join(d.box.home, 'one.ndjson');
    await writeFile(file, JSON.stringify(wafEvent('/dry/run')) + '\n');
    const refused = await d.wafctl('ingest', 'waf', file, '--token', 'wfi_' + 'x'.repeat(40));
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/^error: invalid_token: /m);
    const dry = await d.wafctl('ingest', 'waf', file, '--dry-run');
    expect(dry.code).toBe(0);
    expect(await urisMatching('/dry/run')).toEqual([]);
  });
});

describe('faults', () => {
  let proxy: Server;
  let proxyUrl: string;
  let requests = 0;

  beforeAll(async () => {
    const tlsDir = join(d.box.dataDir, 'tls');
    const upstream = new Agent({ ca, keepAlive: true });
    proxy = createServer({ cert: await readFile(join(tlsDir, 'server.crt')), key: await readFile(join(tlsDir, 'server.key')) }, (req, res) => {
      const n = ++requests;
      // Every third request fails before the daemon sees it; every fifth is rate limited.
      if (n % 3 === 0) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"injected","errors":["injected fault"]}');
      if (n % 5 === 0) return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"message":"Rate limit exceeded","retry_after":1}');
      const forward = httpsRequest(new URL(req.url!, shared.status.api_url), { method: req.method, headers: req.headers, agent: upstream }, (up) => {
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `https://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  it('lands every entry exactly once through injected 500s and 429s', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify(wafEvent(`/fault/${i}`)));
    const file = join(d.box.home, 'faults.ndjson');
    await writeFile(file, lines.join('\n'));
    const summary = await json<Record<string, number>>('--server', proxyUrl, 'ingest', 'waf', file, '--token', token, '--batch-size', '200');
    expect(summary).toMatchObject({ read: 2000, accepted: 2000, rejected: 0 });
    expect(summary.retried).toBeGreaterThanOrEqual(4);
    const stored = await urisMatching('/fault/');
    expect(stored).toHaveLength(2000);
    expect(new Set(stored).size).toBe(2000);
  }, 180_000);

  it('keeps every acknowledged entry when the daemon is killed with SIGKILL mid-ingestion', async () => {
    // Its own daemon: the kill and the restart (on new ports) must not reach the other tests'.
    const own = await newFixture();
    const agent = new Agent({ ca: own.ca, keepAlive: true });
    const acknowledged: string[] = [];
    const post = (batch: unknown[]) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(batch);
        const req = httpsRequest(new URL('/api/vector/waf', own.status.api_url), {
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${own.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        req.end(body);
      });

    let killed = false;
    let ended = false;
    const sending = (async () => {
      try {
        for (let b = 0; !killed && b < 500; b++) {
          const uris = Array.from({ length: 20 }, (_, i) => `/kill/${b}-${i}`);
          try {
            if ((await post(uris.map((uri) => wafEvent(uri)))) === 200) acknowledged.push(...uris);
          } catch {
            return; // the daemon is gone
          }
        }
      } finally {
        ended = true;
      }
    })();
    while (acknowledged.length < 400 && !ended) await new Promise((r) => setTimeout(r, 20));
    expect(acknowledged.length, 'acknowledged before the kill').toBeGreaterThanOrEqual(400);
    process.kill(own.status.pid, 'SIGKILL');
    killed = true;
    await sending;
    agent.destroy();

    own.status = await startDaemon(own.d);
    const stored = await urisMatching('/kill/', own);
    const counts = new Map<string, number>();
    for (const uri of stored) counts.set(uri, (counts.get(uri) ?? 0) + 1);
    for (const uri of acknowledged) expect(counts.get(uri), uri).toBe(1);
    expect(stored.length - acknowledged.length).toBeLessThanOrEqual(20);
  }, 180_000);
});
