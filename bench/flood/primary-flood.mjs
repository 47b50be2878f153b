// The primary's side of a scanner flood, without the edge: what run.mjs's workers send over the
// cluster IPC channel (per attack: ~4 CRS WAF events and one access row, distinct URI and client
// IP each), JSON-encoded and parsed back as the channel does, fed through serveWorker's path
// (BatchingEventSink -> JsonlEventStore) at --rate attacks/s (0: as fast as the store takes them,
// at most --backlog attacks unwritten). Prints process.memoryUsage() every --every attacks, so
// the bytes per event of the index and of what feeds it can be read off the deltas. Needs dist/.
//
//   node --expose-gc bench/flood/primary-flood.mjs --attacks 1000000 --every 100000
import { mkdtempSync, rmSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { attackPath, randomIp } from './attacks.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { openJsonlEventStore } = await import(join(REPO, 'dist/daemon/store/events/jsonl-event-store.js'));
const { BatchingEventSink } = await import(join(REPO, 'dist/daemon/proxy/events.js'));
const { serveWorker } = await import(join(REPO, 'dist/daemon/proxy/cluster-ipc.js'));
const { accessRows } = await import(join(REPO, 'dist/daemon/proxy/access-rows.js'));

const { values: args } = parseArgs({ options: {
  attacks: { type: 'string', default: '1000000' },
  every: { type: 'string', default: '100000' },
  rate: { type: 'string', default: '0' },
  backlog: { type: 'string', default: '20000' },
  'one-ip': { type: 'boolean', default: false },
  'resident-mib': { type: 'string' },
  unbounded: { type: 'boolean', default: false },
} });
const ATTACKS = Number(args.attacks);
const EVERY = Number(args.every);
const RATE = Number(args.rate);
const BACKLOG = Number(args.backlog);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const RULES = [
  ['942100', 'SQL Injection Attack Detected via libinjection', 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf'],
  ['942190', 'Detects MSSQL code execution and information gathering attempts', 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf'],
  ['941100', 'XSS Attack Detected via libinjection', 'REQUEST-941-APPLICATION-ATTACK-XSS.conf'],
  ['949110', 'Inbound Anomaly Score Exceeded (Total Score: 15)', 'REQUEST-949-BLOCKING-EVALUATION.conf'],
];

/** One attack as a worker reports it: its WAF events and its access entry. */
function attack(k) {
  const uri = attackPath(k);
  const ip = args['one-ip'] ? '203.0.113.9' : randomIp();
  const now = Date.now();
  const requestId = crypto.randomUUID();
  const waf = RULES.map(([rule_id, msg, file]) => ({
    timestamp_ms: now, host: 'flood.example.test', client_ip: ip, uri, method: 'GET', waf_file: `/usr/share/modsecurity-crs/rules/${file}`,
    rule_id, severity: 'CRITICAL', msg, group: 'crs', site_id: 1, request_id: requestId, action: 'block', country: 'RO',
    user_agent: 'Mozilla/5.0 (flood bench scanner)', matched_var: 'ARGS:id', matched_data: `Matched Data: found within ARGS:id: ${uri.slice(0, 120)}`,
  }));
  const access = {
    timestamp: Math.floor(now / 1000), host: 'flood.example.test', client_ip: ip, uri, method: 'GET', status: 403, bytes_sent: 586,
    request_time: 0.004, blocked: true, site_id: 1, request_id: requestId, country: 'RO', user_agent: 'Mozilla/5.0 (flood bench scanner)',
  };
  return { waf, access };
}

const mib = (n) => (n / 1048576).toFixed(1);
function usage() {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return m;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wafctl-primary-flood-'));
  const indexMemory = args.unbounded ? false : args['resident-mib'] ? { residentBytes: Number(args['resident-mib']) * 1048576 } : undefined;
  const store = await openJsonlEventStore({ dir, snapshotEveryMs: 0, retentionEveryMs: 0, indexMemory, logger: { info() {}, warn() {}, error: (m, f) => console.error(m, f) } });
  let written = 0;
  const sink = new BatchingEventSink({
    writeWaf: async (batch) => { await store.appendWafEvents(batch); },
    writeAccess: async (batch) => { await store.appendAccessEntries(batch); written += batch.length; },
  }, { onError: (err) => console.error('write failed', err) });
  // A fake worker: messages go through JSON as on node's IPC channel (serialization 'json').
  const worker = new EventEmitter();
  worker.isConnected = () => true;
  worker.send = () => true;
  serveWorker(worker, { hit: () => ({ count: 1, resetAt: 0 }) }, sink);
  const base = usage();
  console.log(`start: rss ${mib(base.rss)} MiB, heap ${mib(base.heapUsed)} MiB, external ${mib(base.external)} MiB`);
  let last = base;
  const begin = performance.now();
  const BATCH = 100;
  for (let k = 0; k < ATTACKS; k += BATCH) {
    const waf = [];
    const access = [];
    for (let i = k; i < Math.min(ATTACKS, k + BATCH); i++) { const a = attack(i); waf.push(...a.waf); access.push(a.access); }
    worker.emit('message', JSON.parse(JSON.stringify({ type: 'wafctl:events', waf, access: [] })));
    worker.emit('message', JSON.parse(JSON.stringify({ type: 'wafctl:events', waf: [], access: accessRows(access) })));
    const sent = k + BATCH;
    if (RATE > 0) {
      const wait = begin + (sent / RATE) * 1000 - performance.now();
      if (wait > 0) await sleep(wait);
    } else {
      while (sent - written > BACKLOG) await sleep(1);
    }
    if (sent % EVERY === 0) {
      const m = usage();
      const events = EVERY * (RULES.length + 1);
      console.log(`${String(sent).padStart(8)} attacks (${((sent / (performance.now() - begin)) * 1000).toFixed(0)}/s, backlog ${sent - written}): rss ${mib(m.rss)} MiB (+${((m.rss - last.rss) / events).toFixed(0)} B/event), heap ${mib(m.heapUsed)}/${mib(m.heapTotal)} MiB (+${((m.heapUsed - last.heapUsed) / events).toFixed(0)} B/event), external ${mib(m.external)} MiB, arrayBuffers ${mib(m.arrayBuffers)} MiB`);
      last = m;
    }
  }
  await sink.flush();
  const end = usage();
  const wafEvents = ATTACKS * RULES.length;
  const stats = store.stats();
  const mem = store.indexMemoryStats?.();
  if (mem) console.log(`index: ${mib(mem.resident_bytes)} MiB resident, ${mib(mem.spilled_bytes)} MiB spilled (${mem.spilled_chunks} chunks)`);
  const probe = await store.searchWafLogs({ site_id: 1, page: 1, per_page: 10, search: 'uri:item.php' });
  console.log(`end: ${ATTACKS} attacks, ${stats.waf_events} WAF events indexed (expected ${wafEvents}), uri:item.php total ${probe.pagination.total}; rss ${mib(end.rss)} MiB, heap ${mib(end.heapUsed)} MiB; ${((end.heapUsed - base.heapUsed) / wafEvents).toFixed(0)} B of heap per WAF event, ${((end.rss - base.rss) / ATTACKS).toFixed(0)} B of RSS per attack`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
