// `wafctl cluster join` as a real process against a real PostgreSQL and Redis: it checks before it
// writes, keeps the other settings of daemon.json, and a daemon started afterwards (with no
// cluster flag) runs in the cluster; a second node is told what the cluster holds and that its own
// sites will be replaced. Every bad input exits with its code and writes nothing.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from '../e2e/daemon-harness.js';
import { startOrigin } from './cluster-nodes.js';
import { freshDatabase, testPostgres } from './postgres.js';
import { testRedis } from './redis.js';

const postgres = await testPostgres();
if (!postgres.ok) console.warn(postgres.skip);
const redis = postgres.ok ? await testRedis('cluster-join') : postgres;

afterAll(async () => {
  await stopAll();
  if (postgres.ok) await postgres.stop();
  if (redis.ok) await redis.stop();
}, 120_000);

const daemonJson = (d: E2eDaemon) => join(d.box.dataDir, 'daemon.json');
const json = (text: string) => JSON.parse(text) as Record<string, any>;

describe.skipIf(!postgres.ok || !redis.ok)('wafctl cluster join', () => {
  const serverUrl = postgres.ok ? postgres.url : '';
  const redisUrl = redis.ok ? redis.url : '';

  it('writes the settings beside the others; the next start runs in the cluster; a second node hears what it holds', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await newSandbox();
    await mkdir(a.box.dataDir, { recursive: true, mode: 0o700 });
    await writeFile(daemonJson(a), JSON.stringify({ listen_host: '127.0.0.1' }), { mode: 0o600 });
    const joined = await a.wafctl('--json', 'cluster', 'join', url, '--redis', redisUrl, '--counter-failure', 'deny');
    expect(joined.code, joined.stderr).toBe(0);
    expect(json(joined.stdout)).toMatchObject({ cluster: { version: null, sites: 0, nodes: 0 }, daemon_running: false });
    expect(json(joined.stdout).postgres).not.toContain('://'); // said without the URL's secrets
    expect(joined.stderr).toContain('start the daemon to join');
    expect(json(await readFile(daemonJson(a), 'utf8'))).toEqual({ listen_host: '127.0.0.1', cluster_postgres: url, cluster_redis: redisUrl, cluster_counter_failure: 'deny' });

    // Started with no cluster flag: daemon.json makes it a node.
    const start = await a.wafctl('daemon', 'start', ...(await quickStartFlags(a.box)));
    expect(start.code, start.stderr).toBe(0);
    const status = json((await a.wafctl('--json', 'cluster', 'status')).stdout);
    expect(status.config).toMatchObject({ backend: 'postgres' });
    expect(status.counters).toMatchObject({ backend: 'redis', failure_mode: 'deny' });
    const origin = await startOrigin();
    try {
      expect((await a.wafctl('site', 'add', 'joined.cluster.test', '--origin', origin.url, '--no-login')).code).toBe(0);

      // A node that ran alone, with a site of its own, is told the cluster's state and warned.
      const b = await newSandbox();
      expect((await b.wafctl('daemon', 'start', ...(await quickStartFlags(b.box)))).code).toBe(0);
      expect((await b.wafctl('site', 'add', 'alone.test', '--origin', origin.url, '--no-login')).code).toBe(0);
      const second = await b.wafctl('cluster', 'join', url);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toMatch(/cluster\s+config version \d+, 1 site, \d+ nodes? so far/);
      expect(second.stdout).toContain('not given: rate limits are counted per node');
      expect(second.stderr).toContain("warning: this node's 1 site in config.json will be replaced by the cluster's configuration");
      expect(second.stderr).toContain('the daemon is running: restart it to join');
      expect(json(await readFile(daemonJson(b), 'utf8'))).toEqual({ cluster_postgres: url });
    } finally {
      await origin.close();
    }
  });

  it('refuses a malformed URL, an unreachable PostgreSQL or Redis, and an unusable daemon.json, writing nothing', async () => {
    const url = await freshDatabase(serverUrl);
    const d = await newSandbox();
    const bad = await d.wafctl('cluster', 'join', 'mysql://db.internal/wafctl');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: usage_error: <postgres-url>: must be a PostgreSQL URL');
    const badRedis = await d.wafctl('cluster', 'join', url, '--redis', 'http://redis.internal');
    expect(badRedis.code).toBe(2);
    expect(badRedis.stderr).toContain('--redis: must be a Redis URL');
    // Port 1 on loopback: refused at once.
    const noPostgres = await d.wafctl('cluster', 'join', 'postgres://wafctl:s3cret@127.0.0.1:1/wafctl');
    expect(noPostgres.code).toBe(4);
    expect(noPostgres.stderr).toContain('error: cluster_unreachable: PostgreSQL wafctl@127.0.0.1:1/wafctl did not answer');
    expect(noPostgres.stderr).not.toContain('s3cret');
    const noRedis = await d.wafctl('cluster', 'join', url, '--redis', 'redis://127.0.0.1:1');
    expect(noRedis.code).toBe(4);
    expect(noRedis.stderr).toContain('error: cluster_unreachable: Redis redis://127.0.0.1:1 did not answer');
    expect(existsSync(daemonJson(d))).toBe(false);

    await mkdir(d.box.dataDir, { recursive: true, mode: 0o700 });
    await writeFile(daemonJson(d), '{"no_such_setting": 1}', { mode: 0o600 });
    const unusable = await d.wafctl('cluster', 'join', url);
    expect(unusable.code).toBe(1);
    expect(unusable.stderr).toContain('error: validation_error:');
    expect(unusable.stderr).toContain('unknown setting "no_such_setting"');
    expect(await readFile(daemonJson(d), 'utf8')).toBe('{"no_such_setting": 1}');
  });
});
