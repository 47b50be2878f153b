#!/usr/bin/env node
// `npm run bench -- NAME [args...]`: runs one benchmark; with no name, lists them. Each prints its
// figures and, where an anchor exists, the ratio against it (../shared/anchors and bench/*/README.md).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = ['--import', 'tsx'];

const BENCHES = {
  engine: { what: 'WAF engine alone: us per request at PL1/PL4, CRS load time and memory', argv: [...tsx, 'bench/engine/engine-bench.ts'] },
  'body-hold': { what: 'how long hostile and large request bodies hold the engine (CPU/wall ms, outcome)', argv: [...tsx, 'bench/engine/body-hold.ts'] },
  'engine-parts': { what: 'hot transformations and operators vs Node built-ins', argv: [...tsx, 'bench/engine-parts/parts-bench.ts'] },
  libinjection: { what: 'libinjection corpora detection and us per call vs the C library', argv: ['bench/libinjection/run.mjs'], build: true },
  events: { what: 'event store vs the SQLite anchor (needs bench/events/setup-anchor.sh)', argv: ['bench/events/run.mjs'], build: true },
  ingest: { what: 'wafctl ingest -> daemon -> fsync, entries/s with 1 and 4 clients', argv: ['bench/ingest/run.mjs'], build: true },
  'vulndb-check': { what: 'vulnerability check latency, 40 plugins against 45,000 records', argv: [...tsx, 'bench/vulndb/check.bench.ts'] },
  'vulndb-import': { what: 'streaming import time and peak RSS of a 160 MB feed', argv: [...tsx, 'bench/vulndb/import.bench.ts'] },
  'waf-settings': { what: 'per-site WAF settings: header hand-over, rule-set lookup, compile cost', argv: ['--expose-gc', ...tsx, 'bench/waf-settings/bench.ts'] },
  'rx-fuzz': { what: 'worst case of every CRS @rx on pathological inputs, then whole PL4 requests (~10 min)', argv: [...tsx, 'bench/rx-fuzz/rx-fuzz.ts'] },
  overload: { what: 'the edge at 2x capacity: served vs shed, API/admin p99, RSS before/during/after', argv: ['bench/overload/run.mjs'], build: true },
  'cluster-config': { what: 'a config change accepted on node A until node B enforces it, p50/p99 (PostgreSQL: see bench/cluster)', argv: [...tsx, 'bench/cluster/config-propagation.ts'], build: true },
  'cluster-bans': { what: 'an auto-ban on node A until nodes B and C enforce it, and each node\'s lateness after expiry (PostgreSQL, --redis: see bench/cluster)', argv: [...tsx, 'bench/cluster/ban-propagation.ts'], build: true },
  'cluster-analytics': { what: '/analytics from PostgreSQL rollups, 24h-90d, p50/p99 (scale-out B5)', argv: [...tsx, 'bench/cluster/analytics.ts'] },
  'cluster-search': { what: '/waf-logs over PostgreSQL at --rows events (1M, 10M), p50/p99 by kind of term (scale-out B4)', argv: [...tsx, 'bench/cluster/waf-search.ts'] },
  'cluster-recovery': { what: 'recovery after a link cut and a PostgreSQL stop, ip netns (root; scale-out acceptance 7)', argv: [...tsx, 'bench/cluster/netns-recovery.ts'], build: true },
  proxy: { what: 'edge vs nginx (+ModSecurity) with wrk (needs the anchors of ../shared/anchors/proxy)', shell: 'bench/proxy/run.sh', build: true },
};

const [name, ...rest] = process.argv.slice(2);
const bench = BENCHES[name];
if (!bench) {
  console.log('usage: npm run bench -- NAME [args]\n');
  for (const [key, { what }] of Object.entries(BENCHES)) console.log(`  ${key.padEnd(14)} ${what}`);
  process.exit(name ? 2 : 0);
}
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status ?? 1;
if (bench.build && run('npm', ['run', 'build']) !== 0) process.exit(1);
process.exit(bench.shell ? run('bash', [bench.shell, ...rest]) : run(process.execPath, [...bench.argv, ...rest]));
