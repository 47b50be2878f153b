// One damaged-snapshot heal on a copy of the benchmark set (it damages DIR/index/KIND.snap in
// place: never point it at the shared data): flips 64 bytes in the middle of SECTION, opens with
// the store at DIST, asks the damaged site once (site 1: /waf-logs page, or 90-day analytics)
// and prints the answer, that query's wall and CPU (the rebuild), RSS and the heal's log lines.
//   node bench/events/heal-probe.mjs DIST DIR waf s1.ts | access s1.hour.bytes
import fs from 'node:fs';
const [dist, dir, kind, section] = process.argv.slice(2);
const file = `${dir}/index/${kind}.snap`;
const bytes = fs.readFileSync(file);
const len = bytes.readUInt32LE(8);
const header = JSON.parse(bytes.toString('utf8', 16, 16 + len));
const sec = header.sections[section];
const at = ((16 + len + 7) & ~7) + sec.offset + (sec.length >> 1);
for (let i = 0; i < 64; i++) bytes[at + i] ^= 0xa5;
fs.writeFileSync(file, bytes);
const { openJsonlEventStore } = await import(`${dist}/daemon/store/events/jsonl-event-store.js`);
const logs = [];
const logger = { info: (m, f) => logs.push([m, f]), warn: (m, f) => logs.push([m, f]), error: (m, f) => logs.push([m, f]) };
const s = await openJsonlEventStore({ dir, logger, retentionEveryMs: 0, snapshotEveryMs: 0 });
const c0 = process.cpuUsage(); const t0 = performance.now();
const r = kind === 'waf' ? (await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total : (await s.analytics({ site_id: 1, period: '90d', now: 1795219200000 })).total_requests;
const c = process.cpuUsage(c0); const wall = performance.now() - t0;
await s.close();
console.log(JSON.stringify({ kind, answer: r, query_wall_ms: Math.round(wall), query_cpu_ms: Math.round((c.user + c.system) / 1000), rss_mb: Math.round(process.memoryUsage().rss / 1e6), logs: logs.filter(([m]) => /damaged|rebuilt/.test(m)) }));
