// How long a config change made through node A's management API takes to be enforced by node B's
// edge (scale-out acceptance 3: p99 <= 1 s over 50 changes; <= 5 s with B's LISTEN connection
// killed). Two real daemons (dist/) on one PostgreSQL; each change blacklists or un-blacklists one
// client on one site through A's API, and the clock runs from A's 2xx answer ("accepted on A")
// until B's edge gives that client the new verdict, polled back to back over loopback.
//
// Three ways B hears of a change:
//   listen      B's LISTEN connection is up: NOTIFY, then a re-read.
//   terminated  before each change B's LISTEN backend is ended (pg_terminate_backend): B sees the
//               connection drop, reconnects after its backoff (0.5 s first) and re-reads.
//   stopped     before each change B's LISTEN backend is frozen (SIGSTOP): the connection looks
//               alive and carries nothing, so only the 5 s version poll finds the change. Needs
//               PostgreSQL on this host and the right to signal its processes (root here).
//
//   npm run build && node --import tsx bench/cluster/config-propagation.ts [--changes 50] [--modes listen,terminated,stopped] [--json FILE]
// PostgreSQL: $WAFCTL_TEST_POSTGRES, else a throwaway one (scripts/test-services/postgres.sh).
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { stopAll } from '../../test/e2e/daemon-harness.js';
import { addSite, api, edgeStatus, startNode, type ClusterNode } from '../../test/cluster/cluster-nodes.js';
import { freshDatabase, sql, testPostgres } from '../../test/cluster/postgres.js';

type Mode = 'listen' | 'terminated' | 'stopped';

const { values: args } = parseArgs({ options: {
  changes: { type: 'string', default: '50' },
  modes: { type: 'string', default: 'listen,terminated,stopped' },
  json: { type: 'string' },
} });
const CHANGES = Number(args.changes);
const MODES = args.modes.split(',') as Mode[];
const CLIENT = '203.0.113.77';
const SITES = 10;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
};

async function listenerPids(url: string, node: ClusterNode): Promise<number[]> {
  const rows = await sql<{ pid: number }>(url, 'SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1', [`wafctl config listener ${node.status.pid} %`]);
  return rows.map((row) => row.pid);
}

/** Waits (bounded) until B has a listener again, so each change starts from the same state. */
async function listenerUp(url: string, node: ClusterNode, not: ReadonlySet<number>): Promise<void> {
  for (let tries = 0; tries < 2000; tries++) {
    if ((await listenerPids(url, node)).some((pid) => !not.has(pid))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('B did not listen again');
}

async function run(): Promise<void> {
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const server = await testPostgres();
  if (!server.ok) throw new Error(server.skip);
  const origin = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  const frozen = new Set<number>();
  const results: Record<string, unknown> = {};
  try {
    const url = await freshDatabase(server.url);
    const a = await startNode(url);
    const b = await startNode(url);
    // The management API allows 30 writes a minute per site key: changes go round ten sites, each
    // toggling the same client on its own blacklist, so no key comes near its limit.
    const sites: Array<{ host: string; key: string; blacklisted: boolean }> = [];
    for (let n = 0; n < SITES; n++) {
      const host = `bench${n}.cluster.test`;
      sites.push({ host, key: await addSite(a, host, originUrl), blacklisted: false });
    }
    for (const { host } of sites) {
      for (let tries = 0; (await edgeStatus(b, host, CLIENT).catch(() => 0)) !== 200; tries++) {
        if (tries > 3000) throw new Error(`B never served ${host}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    let change = 0;
    for (const mode of MODES) {
      const accepted: number[] = [];
      const sent: number[] = [];
      for (let i = 0; i < CHANGES; i++) {
        await listenerUp(url, b, frozen);
        const pids = (await listenerPids(url, b)).filter((pid) => !frozen.has(pid));
        if (mode === 'terminated') await sql(url, 'SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
        if (mode === 'stopped') for (const pid of pids) { process.kill(pid, 'SIGSTOP'); frozen.add(pid); }
        const site = sites[change++ % SITES]!;
        const want = site.blacklisted ? 200 : 403;
        const t0 = performance.now();
        const answer = site.blacklisted
          ? await api(a, 'DELETE', '/ip-rules', site.key, { ip: CLIENT, type: 'blacklist' })
          : await api(a, 'POST', '/ip-rules/blacklist', site.key, { ip: CLIENT });
        const t1 = performance.now();
        if (answer.status >= 300) throw new Error(`A answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        site.blacklisted = !site.blacklisted;
        // Back to back: the resolution is one loopback request (about a millisecond).
        for (let tries = 0; (await edgeStatus(b, site.host, CLIENT)) !== want; tries++) {
          if (tries > 200_000) throw new Error(`B never enforced change ${i} (${mode})`);
        }
        const t2 = performance.now();
        accepted.push(t2 - t1);
        sent.push(t2 - t0);
      }
      // Thaw what was frozen: B has dropped those connections by now, and they end once they run.
      for (const pid of frozen) { try { process.kill(pid, 'SIGCONT'); } catch { /* gone */ } }
      frozen.clear();
      const figures = {
        n: CHANGES,
        accepted_to_enforced_ms: { p50: round(percentile(accepted, 0.5)), p99: round(percentile(accepted, 0.99)), max: round(Math.max(...accepted)) },
        sent_to_enforced_ms: { p50: round(percentile(sent, 0.5)), p99: round(percentile(sent, 0.99)), max: round(Math.max(...sent)) },
      };
      results[mode] = figures;
      console.log(`${mode.padEnd(10)} n=${CHANGES}  accepted on A -> enforced by B: p50 ${figures.accepted_to_enforced_ms.p50} ms, p99 ${figures.accepted_to_enforced_ms.p99} ms, max ${figures.accepted_to_enforced_ms.max} ms`
        + `  (from sending: p50 ${figures.sent_to_enforced_ms.p50}, p99 ${figures.sent_to_enforced_ms.p99})`);
    }
  } finally {
    for (const pid of frozen) { try { process.kill(pid, 'SIGCONT'); } catch { /* gone */ } }
    await stopAll();
    origin.close();
    await server.stop();
  }
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`load average (1, 5, 15 min) before: ${loadBefore}; after: ${load}`);
  if (args.json) {
    const record = { date: new Date().toISOString(), cores: availableParallelism(), load_average_before: loadBefore, load_average_after: load, changes: CHANGES, results };
    writeFileSync(args.json, JSON.stringify(record, null, 2) + '\n');
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

await run();
