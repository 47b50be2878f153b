// Query cost of a spilled WAF index against the same index kept whole in memory: N events
// (flood-like: distinct URIs, 50 IPs, 6 rules), then /waf-logs queries timed on both stores
// (CPU ms, median of --reps). Needs dist/.  node bench/flood/spill-queries.mjs --events 500000 --resident-mib 32
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { attackPath } from './attacks.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { openJsonlEventStore } = await import(join(REPO, 'dist/daemon/store/events/jsonl-event-store.js'));
const { values: args } = parseArgs({ options: { events: { type: 'string', default: '500000' }, 'resident-mib': { type: 'string', default: '32' }, reps: { type: 'string', default: '5' } } });
const N = Number(args.events);
const RULES = ['942100', '942190', '941100', '949110', '930120', '932160'];
const quiet = { info() {}, warn() {}, error: console.error };
// The same events for both stores.
const URIS = Array.from({ length: N }, (_, k) => attackPath(k));

async function build(indexMemory) {
  const dir = mkdtempSync(join(tmpdir(), 'wafctl-spill-q-'));
  const store = await openJsonlEventStore({ dir, snapshotEveryMs: 0, retentionEveryMs: 0, indexMemory, logger: quiet });
  const now = Date.now();
  for (let i = 0; i < N; i += 5000) {
    const batch = [];
    for (let k = i; k < i + 5000; k++) batch.push({ site_id: 1, timestamp_ms: now, host: 'flood.example.test', client_ip: `198.51.100.${k % 50}`, uri: URIS[k], method: 'GET', waf_file: 'f', rule_id: RULES[k % 6], severity: 'CRITICAL', msg: 'm', group: 'crs' });
    await store.appendWafEvents(batch);
  }
  return { store, dir };
}

const QUERIES = [
  ['newest page', { page: 1, per_page: 50 }],
  ['page 500', { page: 500, per_page: 100 }],
  ['ip, page 1', { page: 1, per_page: 50, search: '198.51.100.7' }],
  ['ip, page 50', { page: 50, per_page: 100, search: '198.51.100.7' }],
  ['rule, page 1', { page: 1, per_page: 50, search: '942100' }],
  ['cidr /24', { page: 1, per_page: 50, search: '198.51.100.0/24' }],
  ['uri substring', { page: 1, per_page: 50, search: 'item.php' }],
  ['uri substring, rare', { page: 1, per_page: 50, search: 'uri:zzzzzz' }],
];

async function time(store, q) {
  const cpu = [];
  let total = 0;
  for (let r = 0; r < Number(args.reps); r++) {
    const c = process.cpuUsage();
    total = (await store.searchWafLogs({ site_id: 1, ...q })).pagination.total;
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  return { ms: cpu[cpu.length >> 1], total };
}

const whole = await build(false);
const spilled = await build({ residentBytes: Number(args['resident-mib']) * 1048576 });
console.log(`${N} events; spilled store: ${JSON.stringify(spilled.store.indexMemoryStats())}`);
for (const [name, q] of QUERIES) {
  const a = await time(whole.store, q);
  const b = await time(spilled.store, q);
  if (a.total !== b.total) throw new Error(`${name}: totals differ ${a.total} vs ${b.total}`);
  console.log(`${name.padEnd(22)} total ${String(a.total).padStart(7)}  whole ${a.ms.toFixed(2).padStart(8)} ms  spilled ${b.ms.toFixed(2).padStart(8)} ms CPU (median of ${args.reps})`);
}
for (const s of [whole, spilled]) { await s.store.close(); rmSync(s.dir, { recursive: true, force: true }); }
