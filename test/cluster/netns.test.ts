// Acceptance 7 of the scale-out issue: two real daemons whose PostgreSQL and Redis sit in a network
// namespace behind one veth link (test/cluster/netns.ts). The link goes down (a partition: packets
// dropped, no RST), then PostgreSQL is stopped: each time the edge keeps serving with the config
// it has, management writes, /waf-logs and /analytics answer 503 store_unavailable, the edge's
// events wait in the spool; once the link is up (or the server back), writes work again, the other
// node enforces them and the events of the outage are searchable. How long recovery takes is
// measured by bench/cluster/netns-recovery.ts; here, that it happens within bounded tries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAll } from '../e2e/daemon-harness.js';
import { addSite, api, edgeStatus, startNode, startOrigin, untilEdge, type ClusterNode } from './cluster-nodes.js';
import { netnsServices } from './netns.js';
import { freshDatabase } from './postgres.js';
import { until } from './redis.js';

const services = await netnsServices();
if (!services.ok) console.warn(services.skip);

let origin: Awaited<ReturnType<typeof startOrigin>>;
beforeAll(async () => {
  origin = await startOrigin();
});
afterAll(async () => {
  await stopAll();
  await origin?.close();
  if (services.ok) await services.close();
}, 120_000);

describe.skipIf(!services.ok)('nodes cut off from PostgreSQL and Redis for real (ip netns + veth)', () => {
  let a: ClusterNode;
  let b: ClusterNode;
  let key: string;
  const host = 'netns.cluster.test';

  beforeAll(async () => {
    if (!services.ok) return;
    const url = await freshDatabase(services.postgresUrl);
    const flags = ['--cluster-redis', services.redisUrl];
    a = await startNode(url, { flags });
    b = await startNode(url, { flags });
    key = await addSite(a, host, origin.url);
    expect(await untilEdge(b, host, '198.51.100.1', 200)).toBe(true);
  }, 240_000);

  /** Blacklists `ip` through A's management API: the status of A's answer. */
  const blacklist = async (ip: string): Promise<{ status: number; error?: string }> => {
    const answer = await api(a, 'POST', '/ip-rules/blacklist', key, { ip });
    return { status: answer.status, error: answer.body?.error };
  };

  /** What an outage must look like, then the recovery once `restore` has run. */
  async function outage(cut: () => Promise<void>, restore: () => Promise<void>, clients: { before: string; during: string; after: string }): Promise<void> {
    expect((await blacklist(clients.before)).status).toBe(201);
    expect(await untilEdge(b, host, clients.before, 403)).toBe(true);
    await cut();
    try {
      // The edges serve with the config they have: the blacklisted client refused, others served.
      expect(await edgeStatus(b, host, clients.before)).toBe(403);
      expect(await edgeStatus(a, host, '198.51.100.2')).toBe(200);
      // Writes, searches and analytics cannot be answered from one node's copy: 503.
      expect(await blacklist(clients.during)).toEqual({ status: 503, error: 'store_unavailable' });
      for (const path of ['/waf-logs', '/analytics?period=24h']) {
        const answer = await api(b, 'GET', path, key);
        expect({ path, status: answer.status, error: answer.body?.error }).toEqual({ path, status: 503, error: 'store_unavailable' });
      }
      // The edge's events of the outage go to the spool.
      for (let i = 0; i < 5; i++) expect(await edgeStatus(b, host, clients.before)).toBe(403);
    } finally {
      await restore();
    }
    // Back: a write through A lands, B enforces it, and B's events of the outage are searchable.
    // (Tried every 2.5 s: the site key may write 30 times a minute, refused writes included.)
    expect(await until(async () => (await blacklist(clients.after)).status === 201, 48, 2_500)).toBe(true);
    expect(await untilEdge(b, host, clients.after, 403)).toBe(true);
    expect(await edgeStatus(b, host, clients.during)).toBe(200);
    expect(await until(async () => {
      const logs = await api(b, 'GET', `/waf-logs?search=${clients.before}&per_page=100`, key);
      return logs.status === 200 && logs.body.data.pagination.total >= 6;
    }, 240, 500)).toBe(true);
  }

  it('the link goes down and comes back', async () => {
    if (!services.ok) return;
    await outage(() => services.link('down'), () => services.link('up'), { before: '203.0.113.10', during: '203.0.113.11', after: '203.0.113.12' });
  }, 240_000);

  it('PostgreSQL stops and starts again', async () => {
    if (!services.ok) return;
    await outage(() => services.stopPostgres(), () => services.resumePostgres(), { before: '203.0.113.20', during: '203.0.113.21', after: '203.0.113.22' });
  }, 240_000);
});
