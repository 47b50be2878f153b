// Acceptance 4 of the scale-out issue with real daemons: three nodes on one PostgreSQL and one
// Redis, a site with a rate limit and auto-ban on the first strike. A client that goes over the
// limit on node A is refused by B's and C's edges (one of them with two workers), on every path;
// `wafctl bans list` on C shows the ban A set; a lift on B frees the client on A and C. The time
// it takes is measured in bench/cluster/ban-propagation.ts; here only that it happens, within
// bounded tries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAll } from '../e2e/daemon-harness.js';
import { addSite, edgeStatus, startNode, startOrigin, untilEdge, type ClusterNode } from './cluster-nodes.js';
import { freshDatabase, testPostgres } from './postgres.js';
import { testRedis } from './redis.js';

const postgres = await testPostgres();
const redis = postgres.ok ? await testRedis('bans-nodes') : postgres;
const skip = !postgres.ok ? postgres.skip : !redis.ok ? redis.skip : null;
if (skip) console.warn(skip);

let origin: Awaited<ReturnType<typeof startOrigin>>;
beforeAll(async () => {
  origin = await startOrigin();
});
afterAll(async () => {
  await stopAll();
  await origin?.close();
  if (postgres.ok) await postgres.stop();
  if (redis.ok) await redis.stop();
}, 120_000);

describe.skipIf(skip !== null)('bans shared by three daemons', () => {
  let nodes: ClusterNode[] = [];

  beforeAll(async () => {
    const url = await freshDatabase(postgres.ok ? postgres.url : '');
    const flags = ['--cluster-redis', redis.ok ? redis.url : ''];
    nodes = [await startNode(url, { flags }), await startNode(url, { flags: [...flags, '--workers', '2'] }), await startNode(url, { flags })];
  }, 240_000);

  it('a client auto-banned on A is refused by B and C; a lift on B frees it everywhere', async () => {
    const [a, b, c] = nodes as [ClusterNode, ClusterNode, ClusterNode];
    const host = 'bans.cluster.test';
    await addSite(a, host, origin.url);
    for (const args of [['protect', 'rate-limit', 'add', '/login', '--per-minute', '1'], ['protect', 'auto-ban', '--strikes', '1', '--within', '10m', '--ban-for', '1h']]) {
      const run = await a.d.wafctl('--site', host, ...args);
      expect(run.code, run.stderr).toBe(0);
    }
    const client = '198.51.100.44';
    // Every node serves the site with its limit before the client goes over it on A.
    for (const n of nodes) expect(await untilEdge(n, host, '198.51.100.1', 200)).toBe(true);
    let strikes = 0;
    while ((await edgeStatus(a, host, client)) !== 403 && strikes < 50) {
      await edgeStatus(a, host, client, '/login');
      strikes++;
    }
    expect(strikes).toBeLessThan(50);
    expect(await untilEdge(b, host, client, 403)).toBe(true);
    expect(await untilEdge(c, host, client, 403)).toBe(true);
    expect(await edgeStatus(b, host, '198.51.100.45')).toBe(200);

    const listed = JSON.parse((await c.d.wafctl('--json', '--site', host, 'bans', 'list')).stdout) as Array<{ ip: string; source: string }>;
    expect(listed).toEqual([expect.objectContaining({ ip: client, source: 'auto' })]);

    const lifted = await b.d.wafctl('--site', host, 'bans', 'remove', client);
    expect(lifted.code, lifted.stderr).toBe(0);
    expect(await untilEdge(a, host, client, 200)).toBe(true);
    expect(await untilEdge(c, host, client, 200)).toBe(true);
  }, 240_000);
});
