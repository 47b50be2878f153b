// Two real daemons as cluster nodes on one real PostgreSQL: a change made through node A's
// management API is enforced by node B's edge, B keeps serving and refuses writes while it cannot
// reach PostgreSQL, starts from its cache when PostgreSQL is down, and catches up with a killed
// LISTEN connection, and a visitor cleared by A's JS challenge is let through by B (one challenge
// key for the cluster) and a client pinning A's CA reaches B's API. Every wait is for the change to show at B's edge, bounded by tries.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { Agent } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAll } from '../e2e/daemon-harness.js';
import { addSite, api, type ClusterNode, startAgain, startNode, startOrigin, untilEdge } from './cluster-nodes.js';
import { outageProxy, type OutageProxy } from './outage-proxy.js';
import { freshDatabase, sql, testPostgres } from './postgres.js';

const server = await testPostgres();
if (!server.ok) console.warn(server.skip);

let origin: Awaited<ReturnType<typeof startOrigin>>;
let originUrl: string;
const proxies: OutageProxy[] = [];

beforeAll(async () => {
  origin = await startOrigin();
  originUrl = origin.url;
});
afterAll(async () => {
  await stopAll();
  for (const proxy of proxies.splice(0)) await proxy.close();
  await origin?.close();
  if (server.ok) await server.stop();
}, 120_000);

const version = async (url: string) => Number((await sql<{ version: string }>(url, 'SELECT version FROM wafctl_config'))[0]!.version);

/** B's LISTEN connections, found by the application name the node gives them. */
const listenersOf = (url: string, node: ClusterNode) =>
  sql<{ pid: number }>(url, "SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1", [`wafctl config listener ${node.status.pid} %`]);

/** A node whose path to PostgreSQL goes through a relay the test can cut. */
async function cuttableNode(databaseUrl: string): Promise<{ node: ClusterNode; proxy: OutageProxy }> {
  const proxy = await outageProxy(databaseUrl);
  proxies.push(proxy);
  return { node: await startNode(proxy.url), proxy };
}

describe.skipIf(!server.ok)('config shared by two daemons through PostgreSQL', () => {
  const serverUrl = server.ok ? server.url : '';
  let url: string;
  let a: ClusterNode;
  let b: ClusterNode;

  beforeAll(async () => {
    url = await freshDatabase(serverUrl);
    a = await startNode(url);
    b = await startNode(url);
  }, 180_000);

  it("a blacklisting made through A's management API is enforced by B's edge, and so is its removal", async () => {
    const key = await addSite(a, 'one.cluster.test', originUrl);
    expect(await untilEdge(b, 'one.cluster.test', '203.0.113.10', 200), 'the site added on A is served by B').toBe(true);
    expect((await api(a, 'POST', '/ip-rules/blacklist', key, { ip: '203.0.113.10', description: 'cluster' })).status).toBe(201);
    expect(await untilEdge(b, 'one.cluster.test', '203.0.113.10', 403), 'B blocks the client A blacklisted').toBe(true);
    expect(await untilEdge(b, 'one.cluster.test', '203.0.113.11', 200), 'and only that client').toBe(true);
    expect((await api(a, 'DELETE', '/ip-rules', key, { ip: '203.0.113.10', type: 'blacklist' })).status).toBe(200);
    expect(await untilEdge(b, 'one.cluster.test', '203.0.113.10', 200), 'B lets it in again').toBe(true);
  });

  it('B catches up after its LISTEN connection is killed', async () => {
    const key = await addSite(a, 'two.cluster.test', originUrl);
    expect(await untilEdge(b, 'two.cluster.test', '203.0.113.20', 200)).toBe(true);
    const killed = await sql<{ pid: number }>(url, "SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1 AND pg_terminate_backend(pid)", [`wafctl config listener ${b.status.pid} %`]);
    expect(killed, "B's listener was found and terminated").toHaveLength(1);
    expect((await api(a, 'POST', '/ip-rules/blacklist', key, { ip: '203.0.113.20' })).status).toBe(201);
    expect(await untilEdge(b, 'two.cluster.test', '203.0.113.20', 403), 'B enforces the change made while its listener was gone').toBe(true);
    // And B listens again, on a new connection.
    let again: Array<{ pid: number }> = [];
    for (let tries = 0; tries < 3000 && again.length === 0; tries++) {
      again = (await listenersOf(url, b)).filter((row) => row.pid !== killed[0]!.pid);
      if (again.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again).toHaveLength(1);
  });

  it('B catches up through the version poll when its LISTEN connection is alive but silent', async () => {
    const key = await addSite(a, 'three.cluster.test', originUrl);
    expect(await untilEdge(b, 'three.cluster.test', '203.0.113.25', 200)).toBe(true);
    // Freezing the server process behind B's listener keeps its socket open and silent, the way a
    // half-open connection looks: no notification arrives, no error either; only the poll is left.
    const [listener] = await listenersOf(url, b);
    expect(listener, "B's listener").toBeDefined();
    try {
      process.kill(listener!.pid, 'SIGSTOP');
    } catch (error) {
      // A server on another host, or one this user may not signal: nothing to freeze here.
      console.warn(`poll-only case skipped: cannot signal PostgreSQL backend ${listener!.pid} (${(error as Error).message})`);
      return;
    }
    try {
      expect((await api(a, 'POST', '/ip-rules/blacklist', key, { ip: '203.0.113.25' })).status).toBe(201);
      const written = await version(url);
      expect(await untilEdge(b, 'three.cluster.test', '203.0.113.25', 403), 'found by the poll').toBe(true);
      const applied = (await readFile(join(b.d.box.dataDir, 'daemon.log'), 'utf8')).split('\n').filter((line) => line.includes('cluster config: applied a change'))
        .map((line) => JSON.parse(line) as { version: number; cause: string });
      // The poll's re-read, or (if the poll's ping of the frozen listener timed out first) the re-read
      // of the connection that replaced it: never a notification.
      expect(['poll', 'connect'], "B's log says how it learnt of the change").toContain(applied.find((entry) => entry.version === written)?.cause);
    } finally {
      process.kill(listener!.pid, 'SIGCONT');
    }
  });
  it("a client that pins A's CA reaches B's API: the cluster has one CA, and each node its own server certificate", async () => {
    const key = await addSite(a, 'ca.cluster.test', originUrl);
    const pinnedToA = new Agent({ ca: await readFile(a.status.ca_file, 'utf8'), keepAlive: false });
    expect((await api({ ...b, agent: pinnedToA }, 'GET', '/ip-rules', key)).status).toBe(200);
    const serverCert = (node: ClusterNode) => readFile(join(node.d.box.dataDir, 'tls', 'server.crt'), 'utf8');
    expect(await serverCert(b)).not.toBe(await serverCert(a));
  });

  it('a visitor who solved the JS challenge on A is let through by B: the cluster has one challenge key', async () => {
    const host = 'challenge.cluster.test';
    const client = '203.0.113.30';
    await addSite(a, host, originUrl);
    const on = await a.d.wafctl('--site', host, 'protect', 'bot', 'on', '--challenge', 'js');
    expect(on.code, on.stderr).toBe(0);
    // Both edges have the setting (B through PostgreSQL) and challenge a browser without the cookie.
    expect((await untilChallenged(b, host, client)).body, 'B shows the challenge page').toContain('var T = ');
    // Solved on A (the page's work, done here), the pass cookie A sets opens B.
    const first = await untilChallenged(a, host, client);
    const token = /var T = "([^"]+)"/.exec(first.body)![1]!;
    const bits = Number(/D = (\d+)/.exec(first.body)![1]);
    let s = 0;
    while (!leadingZeroBits(createHash('sha256').update(`${token}:${s}`).digest(), bits)) s++;
    const answer = await browserGet(a, host, client, `/.well-known/wafctl/challenge?t=${encodeURIComponent(token)}&s=${s}&r=%2F`);
    expect(answer.status).toBe(302);
    const cookie = String(answer.headers['set-cookie']).split(';')[0]!;
    const throughB = await browserGet(b, host, client, '/', cookie);
    expect(throughB.status).toBe(200);
    expect(throughB.body).toBe('origin ok');
    expect(await readFile(join(b.d.box.dataDir, 'challenge.key'))).toEqual(await readFile(join(a.d.box.dataDir, 'challenge.key')));
  });
});

/** A GET as a browser would send it (a browser's User-Agent: bot protection lets it reach the challenge). */
function browserGet(node: ClusterNode, host: string, client: string, path: string, cookie?: string): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, 'x-forwarded-for': client, 'user-agent': BROWSER_UA, accept: 'text/html' };
    if (cookie !== undefined) headers.cookie = cookie;
    const req = httpRequest({ host: '127.0.0.1', port: node.status.ports.edge, path, agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The edge's answer once it challenges this client (bounded by tries, not by a time). */
async function untilChallenged(node: ClusterNode, host: string, client: string): ReturnType<typeof browserGet> {
  let page = await browserGet(node, host, client, '/');
  for (let tries = 0; tries < 3000 && !(page.status === 403 && page.body.includes('var T = ')); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    page = await browserGet(node, host, client, '/');
  }
  return page;
}

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

function leadingZeroBits(hash: Buffer, bits: number): boolean {
  for (let i = 0; i < bits; i++) if ((hash[i >> 3]! >> (7 - (i & 7))) & 1) return false;
  return true;
}

describe.skipIf(!server.ok)('a node that cannot reach PostgreSQL', () => {
  const serverUrl = server.ok ? server.url : '';

  it('keeps serving its last config, answers writes with 503 store_unavailable and changes nothing', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await startNode(url);
    const { node: b, proxy } = await cuttableNode(url);
    const key = await addSite(a, 'down.cluster.test', originUrl);
    expect(await untilEdge(b, 'down.cluster.test', '203.0.113.30', 200)).toBe(true);

    proxy.cut();
    const before = await version(url);
    const refused = await api(b, 'POST', '/ip-rules/blacklist', key, { ip: '203.0.113.30' });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ success: false, error: 'store_unavailable', message: expect.any(String) });
    const viaSocket = await b.d.wafctl('site', 'add', 'other.cluster.test', '--origin', originUrl, '--no-login');
    expect(viaSocket.code).not.toBe(0);
    expect(viaSocket.stderr).toMatch(/store_unavailable/);
    expect(await version(url), 'nothing was written').toBe(before);
    expect((await api(a, 'GET', '/ip-rules', key)).body.data.blacklist).toEqual([]);
    expect(await untilEdge(b, 'down.cluster.test', '203.0.113.30', 200), 'B still serves the site').toBe(true);

    proxy.restore();
    // The first write after the outage may still meet a connection the cut broke: B answers 503
    // for it and nothing is written, so retrying is safe.
    let accepted = 0;
    for (let tries = 0; tries < 50 && accepted !== 201; tries++) accepted = (await api(b, 'POST', '/ip-rules/blacklist', key, { ip: '203.0.113.30' })).status;
    expect(accepted).toBe(201);
    expect(await untilEdge(a, 'down.cluster.test', '203.0.113.30', 403), "A enforces B's write").toBe(true);
  });

  it('starts from its cached config, then catches up when PostgreSQL is back', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await startNode(url);
    const { node: b, proxy } = await cuttableNode(url);
    const key = await addSite(a, 'cache.cluster.test', originUrl);
    expect((await api(a, 'POST', '/ip-rules/blacklist', key, { ip: '203.0.113.40' })).status).toBe(201);
    expect(await untilEdge(b, 'cache.cluster.test', '203.0.113.40', 403)).toBe(true);

    expect((await b.d.wafctl('daemon', 'stop')).code).toBe(0);
    proxy.cut();
    const restarted = await startAgain(b);
    expect(await untilEdge(restarted, 'cache.cluster.test', '203.0.113.41', 200), 'served from the cache').toBe(true);
    expect(await untilEdge(restarted, 'cache.cluster.test', '203.0.113.40', 403), 'with its blacklist').toBe(true);
    // And the cluster's challenge key, kept in its own file, not a key of its own.
    expect(await readFile(join(b.d.box.dataDir, 'challenge.key'))).toEqual(await readFile(join(a.d.box.dataDir, 'challenge.key')));

    // Changed on A while B is cut off: B learns it once PostgreSQL answers again.
    expect((await api(a, 'DELETE', '/ip-rules', key, { ip: '203.0.113.40', type: 'blacklist' })).status).toBe(200);
    proxy.restore();
    expect(await untilEdge(restarted, 'cache.cluster.test', '203.0.113.40', 200)).toBe(true);
  });
});
