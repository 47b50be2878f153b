// Summarises run.sh output: medians per scenario and mix, and paired ratios (same round, same mix).
// usage: node bench/proxy/summarize.mjs results/throughput-*.jsonl
import { readFileSync } from 'node:fs';

const all = process.argv.slice(2).flatMap((f) => readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)));
// Runs where other processes used more than 15 % of the machine are left out, unless that leaves
// fewer than 2 runs of some cell (then every run is kept and the table says so).
const MAX_FOREIGN = 15;
const quiet = all.filter((r) => (r.foreign_cpu_pct ?? 0) <= MAX_FOREIGN);
const cells = new Set(all.map((r) => `${r.scenario}|${r.mix}`));
const enough = [...cells].every((c) => quiet.filter((r) => `${r.scenario}|${r.mix}` === c).length >= 2);
const runs = enough ? quiet : all;
console.log(enough
  ? `runs used: ${runs.length} of ${all.length} (left out: foreign CPU > ${MAX_FOREIGN} %)`
  : `runs used: all ${all.length} (too few had foreign CPU <= ${MAX_FOREIGN} %: figures are disturbed; median foreign CPU ${Math.round(median(all.map((r) => r.foreign_cpu_pct ?? 0)))} %)`);
function median(xs) { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; }
const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const key = (r) => `${r.scenario}|${r.mix}`;
const groups = new Map();
for (const r of runs) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);

console.log(`\n| scenario | mix | req/s median | min–max (runs) | p50 / p99 ms | server CPU µs/req | non-2xx |`);
console.log(`|---|---|---:|---:|---:|---:|---:|`);
for (const [k, rs] of groups) {
  const [sc, mix] = k.split('|');
  const rps = rs.map((r) => r.rps);
  console.log(`| ${sc} | ${mix} | ${fmt(median(rps))} | ${fmt(Math.min(...rps))}–${fmt(Math.max(...rps))} (${rs.length}) | ${fmt(median(rs.map((r) => r.lat_p50_us)) / 1000, 2)} / ${fmt(median(rs.map((r) => r.lat_p99_us)) / 1000, 2)} | ${fmt(median(rs.map((r) => (r.sut_cpu_s * 1e6) / r.requests)))} | ${rs.reduce((a, r) => a + r.err_status, 0)} |`);
}

const pairs = [['edge', 'nginx-proxy'], ['edge-cluster2', 'nginx-proxy'], ['edge', 'node-undici'], ['edge-cluster2', 'node-undici-cluster2'], ['node-undici-cluster2', 'nginx-proxy']];
console.log(`\n| ratio (paired by round) | mix | req/s A÷B median (range) | CPU/req A÷B |`);
console.log(`|---|---|---:|---:|`);
for (const [a, b] of pairs) {
  for (const mix of ['get', 'post']) {
    const ra = groups.get(`${a}|${mix}`) ?? [], rb = groups.get(`${b}|${mix}`) ?? [];
    const ratios = ra.map((x) => { const y = rb.find((r) => r.round === x.round); return y ? x.rps / y.rps : null; }).filter((x) => x !== null);
    if (!ratios.length) continue;
    const cpu = (rs) => median(rs.map((r) => (r.sut_cpu_s * 1e6) / r.requests));
    console.log(`| ${a} ÷ ${b} | ${mix} | ${fmt(median(ratios), 2)} (${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}) | ${fmt(cpu(ra) / cpu(rb), 2)} |`);
  }
}
