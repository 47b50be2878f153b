// Recovery after a real outage (scale-out acceptance 7: <= 5 s): PostgreSQL and Redis in a network
// namespace behind one veth link (test/cluster/netns.ts), two real daemons outside it. Each cycle
// cuts the link (or stops PostgreSQL) for --down seconds, restores it, and times from the restore
// until (a) a management write through node A is accepted and (b) node B's edge enforces it.
// Writes go round ten sites (each key may write 30 times a minute), one every 100 ms while waiting.
// Needs root (ip netns).
//
//   node --import tsx bench/cluster/netns-recovery.ts [--cycles 5] [--down 10] [--json FILE]
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { stopAll } from '../../test/e2e/daemon-harness.js';
import { addSite, api, edgeStatus, startNode, startOrigin } from '../../test/cluster/cluster-nodes.js';
import { netnsServices } from '../../test/cluster/netns.js';
import { freshDatabase } from '../../test/cluster/postgres.js';

const { values: args } = parseArgs({ options: {
  cycles: { type: 'string', default: '5' },
  down: { type: 'string', default: '10' },
  json: { type: 'string' },
} });
const CYCLES = Number(args.cycles);
const DOWN_MS = Number(args.down) * 1000;
const SITES = 10;

const round = (ms: number) => Math.round(ms);

async function run(): Promise<void> {
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const services = await netnsServices();
  if (!services.ok) throw new Error(services.skip);
  const origin = await startOrigin();
  const results: Record<string, Array<{ accepted_ms: number; enforced_ms: number }>> = {};
  try {
    const url = await freshDatabase(services.postgresUrl);
    const flags = ['--cluster-redis', services.redisUrl];
    const a = await startNode(url, { flags });
    const b = await startNode(url, { flags });
    const sites = [];
    for (let n = 0; n < SITES; n++) sites.push({ host: `recovery${n}.cluster.test`, key: await addSite(a, `recovery${n}.cluster.test`, origin.url) });
    let write = 0;
    const outages: Array<[string, () => Promise<void>, () => Promise<void>]> = [
      ['link down', () => services.link('down'), () => services.link('up')],
      ['postgres stopped', () => services.stopPostgres(), () => services.resumePostgres()],
    ];
    for (const [name, cut, restore] of outages) {
      results[name] = [];
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        await cut();
        await sleep(DOWN_MS);
        await restore();
        const t0 = performance.now();
        let accepted = 0;
        let site = sites[0]!;
        const client = `203.0.113.${cycle + (name === 'link down' ? 0 : 100)}`;
        for (let tries = 0; ; tries++) {
          if (tries > 1_200) throw new Error(`${name}: no write accepted 2 minutes after the restore`);
          site = sites[write++ % SITES]!;
          const answer = await api(a, 'POST', '/ip-rules/blacklist', site.key, { ip: client }).catch(() => ({ status: 0 }));
          if (answer.status === 201) { accepted = performance.now(); break; }
          await sleep(100);
        }
        for (let tries = 0; (await edgeStatus(b, site.host, client).catch(() => 0)) !== 403; tries++) {
          if (tries > 100_000) throw new Error(`${name}: B never enforced the write`);
        }
        const enforced = performance.now();
        results[name].push({ accepted_ms: round(accepted - t0), enforced_ms: round(enforced - t0) });
        console.log(`${name}, cycle ${cycle + 1}: write accepted ${round(accepted - t0)} ms after the restore, enforced by B ${round(enforced - t0)} ms after`);
        // Take the entry back out, so each cycle's site list stays within the plan's five.
        await api(a, 'DELETE', '/ip-rules', site.key, { ip: client, type: 'blacklist' });
      }
    }
  } finally {
    await stopAll();
    await origin.close();
    await services.close();
  }
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`load average (1, 5, 15 min) before: ${loadBefore}; after: ${load}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ date: new Date().toISOString(), cores: availableParallelism(), load_average_before: loadBefore, load_average_after: load, down_s: DOWN_MS / 1000, results }, null, 2) + '\n');
}

await run();
