// `wafctl cluster status` against real daemons (the CLI as a process, over the admin socket): a node
// on PostgreSQL and Redis says it listens for config changes, ships its WAF events and counts in
// Redis; with its path to PostgreSQL cut it says so for the config and the events (and the events
// wait in its spool), and catches up once the path is back; a daemon that runs alone is refused with
// not_clustered. The lines themselves are unit-tested in test/cli/commands/cluster/status.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll } from '../e2e/daemon-harness.js';
import { addSite, api, type ClusterNode, edgeStatus, startNode, startOrigin } from './cluster-nodes.js';
import { outageProxy, type OutageProxy } from './outage-proxy.js';
import { freshDatabase, testPostgres } from './postgres.js';
import { testRedis, until } from './redis.js';

const postgres = await testPostgres();
const redis = postgres.ok ? await testRedis('cluster-status') : postgres;
const skip = !postgres.ok ? postgres.skip : !redis.ok ? redis.skip : null;
if (skip) console.warn(skip);

interface ClusterView {
  counters: { state: string } | null;
  config: { state: string; version: number; postgres: string } | null;
  events: { state: string; node: string; caught_up: boolean; shipped_since_start: number; shipped_through_id: number; spool_last_id: number } | null;
}

let origin: Awaited<ReturnType<typeof startOrigin>>;
let originUrl: string;
let proxy: OutageProxy | null = null;
beforeAll(async () => {
  origin = await startOrigin();
  originUrl = origin.url;
});
afterAll(async () => {
  await stopAll();
  await proxy?.close();
  await origin?.close();
  if (postgres.ok) await postgres.stop();
  if (redis.ok) await redis.stop();
}, 120_000);

async function clusterStatus(node: ClusterNode): Promise<ClusterView> {
  const run = await node.d.wafctl('--json', 'cluster', 'status');
  if (run.code !== 0) throw new Error(`cluster status exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as ClusterView;
}

/** Polls `cluster status` until `check` holds (bounded by tries, not by a time); returns the last view. */
async function untilStatus(node: ClusterNode, check: (view: ClusterView) => boolean): Promise<ClusterView> {
  let view = await clusterStatus(node);
  for (let tries = 0; tries < 300 && !check(view); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    view = await clusterStatus(node);
  }
  return view;
}

describe.skipIf(skip !== null)('wafctl cluster status', () => {
  it('says how a node shares config, events and counters, and what an outage of PostgreSQL does to them', async () => {
    proxy = await outageProxy(await freshDatabase(postgres.ok ? postgres.url : ''));
    const node = await startNode(proxy.url, { flags: ['--cluster-redis', redis.ok ? redis.url : ''] });

    const first = await untilStatus(node, (v) => v.config?.state === 'listening' && v.events?.state === 'shipping');
    expect(first.config).toMatchObject({ state: 'listening', postgres: expect.stringMatching(/^postgres@127\.0\.0\.1:\d+\/wafctl_test_/) });
    expect(first.events).toMatchObject({ state: 'shipping', node: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(first.counters).toMatchObject({ state: 'exact' });

    // A blocked request is a WAF event: it ships, and the node says it is caught up.
    const key = await addSite(node, 'status.cluster.test', originUrl);
    expect((await api(node, 'POST', '/ip-rules/blacklist', key, { ip: '203.0.113.50', description: 'status' })).status).toBe(201);
    expect(await until(async () => (await edgeStatus(node, 'status.cluster.test', '203.0.113.50')) === 403, 300, 20)).toBe(true);
    const shipped = await untilStatus(node, (v) => (v.events?.shipped_since_start ?? 0) >= 1 && v.events!.caught_up);
    expect(shipped.events).toMatchObject({ state: 'shipping', caught_up: true });
    expect(shipped.config!.version).toBeGreaterThan(first.config!.version);

    // Cut off from PostgreSQL: the next blocked request waits in the spool, and both parts say so.
    proxy.cut();
    await edgeStatus(node, 'status.cluster.test', '203.0.113.50');
    const cut = await untilStatus(node, (v) => v.events?.state === 'unreachable' && v.config?.state === 'unreachable');
    expect(cut.events).toMatchObject({ state: 'unreachable', caught_up: false });
    expect(cut.config!.state).toBe('unreachable');
    expect(cut.events!.spool_last_id).toBeGreaterThan(cut.events!.shipped_through_id);
    expect(cut.counters).toMatchObject({ state: 'exact' });

    // Back: it ships what waited and follows changes again.
    proxy.restore();
    const back = await untilStatus(node, (v) => v.events?.state === 'shipping' && v.events.caught_up && v.config?.state === 'listening');
    expect(back.events!.shipped_since_start).toBeGreaterThan(shipped.events!.shipped_since_start);
    expect(back.config!.state).toBe('listening');
  }, 240_000);

  it('refuses a daemon that runs alone: not_clustered, exit 1, nothing on stdout', async () => {
    const d = await newSandbox();
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code, start.stderr).toBe(0);
    try {
      const run = await d.wafctl('--json', 'cluster', 'status');
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/not_clustered: this daemon runs alone/);
    } finally {
      await d.wafctl('daemon', 'stop');
    }
  }, 120_000);
});
