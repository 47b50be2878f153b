// How long an automatic ban set on node A takes to be enforced by nodes B and C, and how close to
// its expiry every node lets the client in again (scale-out acceptance 4: p99 <= 1 s; expiry
// within 1 s of the TTL). Three real daemons (dist/) on one PostgreSQL, with or without one Redis
// (--redis: bans also travel on Redis pub/sub; without, PostgreSQL's NOTIFY alone).
//
// Each round takes a new client: two requests to A's /login (limit 1 a minute, auto-ban on the
// first strike, bans of one minute); the second is the strike, and the clock runs from A's 429 until
// B's and C's edges answer that client 403 on another path, asked back to back over loopback.
// Then, with every ban set, each node is asked until it lets each client in again, and the time
// of that first 200 is compared with the ban's expires_at (from `wafctl bans list --json` on A).
//
//   npm run build && node --import tsx bench/cluster/ban-propagation.ts [--bans 50] [--redis] [--json FILE]
// PostgreSQL: $WAFCTL_TEST_POSTGRES, else a throwaway one; Redis: $WAFCTL_TEST_REDIS, else a throwaway one.
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { stopAll } from '../../test/e2e/daemon-harness.js';
import { addSite, edgeStatus, startNode, startOrigin, untilEdge, type ClusterNode } from '../../test/cluster/cluster-nodes.js';
import { freshDatabase, testPostgres } from '../../test/cluster/postgres.js';
import { testRedis } from '../../test/cluster/redis.js';

const { values: args } = parseArgs({ options: {
  bans: { type: 'string', default: '50' },
  redis: { type: 'boolean', default: false },
  json: { type: 'string' },
} });
const BANS = Number(args.bans);
const HOST = 'bans.bench.test';

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;
const summary = (xs: number[]) => ({ p50: round(percentile(xs, 0.5)), p99: round(percentile(xs, 0.99)), max: round(Math.max(...xs)) });

/** Asks back to back until the node answers `want`; the time it did, on this process's clock. */
async function until(node: ClusterNode, client: string, want: number): Promise<number> {
  for (let tries = 0; tries < 500_000; tries++) {
    if ((await edgeStatus(node, HOST, client, '/page')) === want) return performance.now();
  }
  throw new Error(`node never answered ${want} for ${client}`);
}

async function run(): Promise<void> {
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const postgres = await testPostgres();
  if (!postgres.ok) throw new Error(postgres.skip);
  const redis = args.redis ? await testRedis() : null;
  if (redis && !redis.ok) throw new Error(redis.skip);
  const origin = await startOrigin();
  let results: Record<string, unknown> = {};
  try {
    const url = await freshDatabase(postgres.url);
    const flags = redis?.ok ? ['--cluster-redis', redis.url] : [];
    const [a, b, c] = [await startNode(url, { flags }), await startNode(url, { flags }), await startNode(url, { flags })] as [ClusterNode, ClusterNode, ClusterNode];
    await addSite(a, HOST, origin.url);
    for (const more of [['protect', 'rate-limit', 'add', '/login', '--per-minute', '1'], ['protect', 'auto-ban', '--strikes', '1', '--within', '1m', '--ban-for', '1m']]) {
      const done = await a.d.wafctl('--site', HOST, ...more);
      if (done.code !== 0) throw new Error(done.stderr);
    }
    for (const n of [a, b, c]) if (!(await untilEdge(n, HOST, '192.0.2.1', 200))) throw new Error('a node never served the site');
    // The limit is in force on A once a probe client of its own is limited.
    for (let tries = 0; (await edgeStatus(a, HOST, '192.0.2.2', '/login')) !== 429; tries++) if (tries > 5_000) throw new Error('the limit never applied');

    const toB: number[] = [];
    const toC: number[] = [];
    const clients: string[] = [];
    for (let i = 0; i < BANS; i++) {
      const client = `198.51.${100 + (i >> 8)}.${i & 255}`;
      clients.push(client);
      if ((await edgeStatus(a, HOST, client, '/login')) !== 200) throw new Error(`round ${i}: the first request was refused`);
      const strike = await edgeStatus(a, HOST, client, '/login');
      const t0 = performance.now();
      if (strike !== 429) throw new Error(`round ${i}: the strike got ${strike}`);
      const [tb, tc] = await Promise.all([until(b, client, 403), until(c, client, 403)]);
      toB.push(tb - t0);
      toC.push(tc - t0);
    }
    const listed = JSON.parse((await a.d.wafctl('--json', '--site', HOST, 'bans', 'list')).stdout) as Array<{ ip: string; expires_at: string }>;
    const expiresAt = new Map(listed.map((ban) => [ban.ip, Date.parse(ban.expires_at)]));
    // performance.now() and Date.now() share this process: the offset turns one into the other.
    const epochOffset = Date.now() - performance.now();
    // Asked from 2 s before the first expiry on, not for the whole minute (each refusal is an event).
    const first = Math.min(...expiresAt.values());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, first - Date.now() - 2_000)));
    const late: number[] = [];
    await Promise.all([a, b, c].map(async (node) => {
      for (const client of clients) {
        const t = await until(node, client, 200);
        late.push(t + epochOffset - expiresAt.get(client)!);
      }
    }));
    results = { bans: BANS, transport: redis ? 'redis + notify' : 'notify', strike_on_a_to_enforced_ms: { b: summary(toB), c: summary(toC) }, first_200_after_expiry_ms: summary(late) };
    console.log(`${BANS} auto-bans on A (${results.transport}): enforced by B p50 ${summary(toB).p50} ms, p99 ${summary(toB).p99} ms; by C p50 ${summary(toC).p50} ms, p99 ${summary(toC).p99} ms`);
    console.log(`expiry: first 200 after expires_at, all nodes: p50 ${summary(late).p50} ms, p99 ${summary(late).p99} ms, max ${summary(late).max} ms (negative: before)`);
  } finally {
    await stopAll();
    await origin.close();
    await postgres.stop();
    if (redis?.ok) await redis.stop();
  }
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`load average (1, 5, 15 min) before: ${loadBefore}; after: ${load}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ date: new Date().toISOString(), cores: availableParallelism(), load_average_before: loadBefore, load_average_after: load, results }, null, 2) + '\n');
}

await run();
