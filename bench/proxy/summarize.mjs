// Summarises run.sh output: medians per scenario and mix, paired ratios (same round, same mix), whether the
// run is valid (benign mixes: no non-2xx anywhere; attack mix: every response refused by every WAF) and, for the
// WAF set (-s waf), the targets of bench/proxy/README.md.
// usage: node bench/proxy/summarize.mjs results/<file>.jsonl [more.jsonl ...]   (rounds are paired within one file)
import { readFileSync } from 'node:fs';

const all = process.argv.slice(2).flatMap((f) => readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)));
if (all.length === 0) { console.error('usage: node bench/proxy/summarize.mjs results/<file>.jsonl'); process.exit(2); }
const mode = all[0].mode;
const isWafSet = all.some((r) => r.set === 'waf');

// Runs where other processes used more than 15 % of the machine are left out, unless that leaves
// fewer than 2 runs of some cell (then every run is kept and the table says so).
const MAX_FOREIGN = 15;
const quiet = all.filter((r) => (r.foreign_cpu_pct ?? 0) <= MAX_FOREIGN);
const key = (r) => `${r.scenario}|${r.mix}`;
const cells = new Set(all.map(key));
const enough = [...cells].every((c) => quiet.filter((r) => key(r) === c).length >= 2);
const runs = enough ? quiet : all;
const builds = [...new Set(all.map((r) => r.build).filter(Boolean))];
const edgeArgs = [...new Set(all.map((r) => r.edge_args).filter(Boolean))];
console.log(`${mode}${builds.length ? `, build ${builds.join(', ')}` : ''}${edgeArgs.length ? `, daemon flags ${edgeArgs.join(' | ')}` : ''}, ${all[0].at ?? ''}`);
console.log(enough
  ? `runs used: ${runs.length} of ${all.length} (left out: foreign CPU > ${MAX_FOREIGN} %)`
  : `runs used: all ${all.length} (too few had foreign CPU <= ${MAX_FOREIGN} %: figures are disturbed; median foreign CPU ${Math.round(median(all.map((r) => r.foreign_cpu_pct ?? 0)))} %)`);

function median(xs) { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; }
const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
/** Ratios: two decimals, three below 0.1 (ModSecurity ÷ nginx is ~0.015). */
const fmtRatio = (x) => fmt(x, Math.abs(x) < 0.1 ? 3 : 2);
const cpuPerReq = (r) => (r.sut_cpu_s * 1e6) / r.requests;
const groups = new Map();
for (const r of runs) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);

// Validity is judged on every run, not only the quiet ones.
const problems = [];
for (const r of all) {
  const errs = r.err_connect + r.err_read + r.err_write;
  if (r.mix === 'attack' && r.waf && r.err_status !== r.requests) problems.push(`r${r.round} ${key(r)}: ${r.requests - r.err_status} of ${r.requests} SQLi requests not refused`);
  if (r.mix !== 'attack' && r.err_status > 0) problems.push(`r${r.round} ${key(r)}: ${r.err_status} non-2xx answers to benign requests`);
  if (errs > 0) problems.push(`r${r.round} ${key(r)}: ${errs} socket errors`);
}
const attacked = all.some((r) => r.mix === 'attack' && r.waf);
console.log(problems.length ? `INVALID RUN:\n  ${problems.join('\n  ')}` : `valid: benign mixes all 2xx${attacked ? ', SQLi refused by every WAF' : ''} in every run`);

console.log(`\n| scenario | mix | req/s median | min–max (runs) | p50 / p99 ms | server CPU µs/req | non-2xx |`);
console.log(`|---|---|---:|---:|---:|---:|---:|`);
for (const [k, rs] of groups) {
  const [sc, mix] = k.split('|');
  const rps = rs.map((r) => r.rps);
  console.log(`| ${sc} | ${mix} | ${fmt(median(rps))} | ${fmt(Math.min(...rps))}–${fmt(Math.max(...rps))} (${rs.length}) | ${fmt(median(rs.map((r) => r.lat_p50_us)) / 1000, 2)} / ${fmt(median(rs.map((r) => r.lat_p99_us)) / 1000, 2)} | ${fmt(median(rs.map(cpuPerReq)))} | ${rs.reduce((a, r) => a + r.err_status, 0)} |`);
}

// The daemon's own request_time (run.sh, latency mode): what the edge spent, without wrk's and the kernel's queueing.
const ownRows = [...groups].filter(([, rs]) => rs.some((r) => r.edge_p50_us !== undefined));
if (ownRows.length) {
  console.log(`\n| scenario | mix | wrk p50 / p99 ms | the edge's own p50 / p99 ms (access log request_time) |\n|---|---|---:|---:|`);
  for (const [k, rs] of ownRows) {
    const [sc, mix] = k.split('|');
    const own = rs.filter((r) => r.edge_p50_us !== undefined);
    console.log(`| ${sc} | ${mix} | ${fmt(median(rs.map((r) => r.lat_p50_us)) / 1000, 2)} / ${fmt(median(rs.map((r) => r.lat_p99_us)) / 1000, 2)} | ${fmt(median(own.map((r) => r.edge_p50_us)) / 1000, 2)} / ${fmt(median(own.map((r) => r.edge_p99_us)) / 1000, 2)} |`);
  }
}

/** Paired req/s ratios A÷B over the rounds where both ran, and the ratio of median CPU per request. */
function ratio(a, b, mix) {
  const ra = groups.get(`${a}|${mix}`) ?? [], rb = groups.get(`${b}|${mix}`) ?? [];
  const rs = ra.map((x) => { const y = rb.find((r) => r.round === x.round); return y ? x.rps / y.rps : null; }).filter((x) => x !== null);
  if (!rs.length) return null;
  return { median: median(rs), min: Math.min(...rs), max: Math.max(...rs), cpu: median(rb.map(cpuPerReq)) / median(ra.map(cpuPerReq)) };
}

const pairs = isWafSet
  ? [['edge-waf', 'modsec'], ['edge-waf', 'modsec-resp'], ['edge-waf', 'apache-modsec2'], ['edge-waf', 'edge-off'], ['edge-off', 'nginx-proxy'], ['modsec', 'nginx-proxy'], ['apache-modsec2', 'modsec']]
  : [['edge', 'nginx-proxy'], ['edge-cluster2', 'nginx-proxy'], ['edge', 'node-undici'], ['edge-cluster2', 'node-undici-cluster2'], ['node-undici-cluster2', 'nginx-proxy']];
console.log(`\n| ratio (paired by round) | mix | req/s A÷B median (range) | CPU/req B÷A (A's CPU advantage) |`);
console.log(`|---|---|---:|---:|`);
for (const [a, b] of pairs) {
  for (const mix of ['get', 'post', 'varied-get', 'varied-post', 'attack']) {
    const r = ratio(a, b, mix);
    if (r) console.log(`| ${a} ÷ ${b} | ${mix} | ${fmtRatio(r.median)} (${fmtRatio(r.min)}–${fmtRatio(r.max)}) | ${fmtRatio(r.cpu)} |`);
  }
}

if (isWafSet) {
  // The targets (2 workers, CRS PL1, same run): see bench/proxy/README.md.
  const targets = [];
  const check = (what, value, ok, shown) => targets.push(`| ${what} | ${value === null ? 'not measured' : shown} | ${value === null ? '–' : ok ? 'met' : 'NOT met'} |`);
  const med = (sc, mix, f) => { const rs = groups.get(`${sc}|${mix}`); return rs ? median(rs.map(f)) : null; };
  if (mode === 'throughput') {
    const g = ratio('edge-waf', 'modsec', 'get'), p = ratio('edge-waf', 'modsec', 'post');
    check('WAF-on benign GET ≥ 10× nginx + ModSecurity v3 req/s', g && g.median, g && g.median >= 10, g && `${fmt(g.median, 2)}×`);
    check('WAF-on form POST ≥ 8× nginx + ModSecurity v3 req/s', p && p.median, p && p.median >= 8, p && `${fmt(p.median, 2)}×`);
    // Every request distinct (lua/mix-varied-*.lua): what no memo of seen values can flatter.
    const vg = ratio('edge-waf', 'modsec', 'varied-get'), vp = ratio('edge-waf', 'modsec', 'varied-post');
    check('WAF-on varied GET ≥ 10× nginx + ModSecurity v3 req/s', vg && vg.median, vg && vg.median >= 10, vg && `${fmt(vg.median, 2)}×`);
    check('WAF-on varied comment POST ≥ 8× nginx + ModSecurity v3 req/s', vp && vp.median, vp && vp.median >= 8, vp && `${fmt(vp.median, 2)}×`);
    const vgr = ratio('edge-waf', 'modsec-resp', 'varied-get');
    check('WAF-on varied GET against ModSecurity with responses inspected too (like for like)', vgr && vgr.median, vgr && vgr.median >= 10, vgr && `${fmt(vgr.median, 2)}×`);
    const pg = ratio('edge-waf', 'nginx-proxy', 'varied-get');
    check('WAF-on varied GET ≥ 0.2× the plain nginx proxy', pg && pg.median, pg && pg.median >= 0.2, pg && `${fmt(pg.median, 2)}×`);
    for (const mix of ['get', 'post', 'varied-get', 'varied-post', 'attack']) {
      const x = ratio('edge-waf', 'apache-modsec2', mix);
      check(`WAF-on ${mix} ahead of Apache + ModSecurity v2`, x && x.median, x && x.median > 1, x && `${fmt(x.median, 2)}×`);
    }
    for (const mix of ['get', 'post']) {
      const x = ratio('edge-off', 'nginx-proxy', mix);
      check(`WAF-off ${mix} ≥ 0.30× the plain nginx proxy`, x && x.median, x && x.median >= 0.3, x && `${fmt(x.median, 2)}×`);
    }
  } else {
    for (const mix of ['get', 'post']) {
      const p50 = med('edge-waf', mix, (r) => r.lat_p50_us / 1000), p99 = med('edge-waf', mix, (r) => r.lat_p99_us / 1000);
      const rps = med('edge-waf', mix, (r) => r.rps);
      check(`WAF-on ${mix} p50 < 1.5 ms at ~${rps === null ? '?' : fmt(rps)} req/s`, p50, p50 < 1.5, `${fmt(p50 ?? 0, 2)} ms`);
      check(`WAF-on ${mix} p99 < 4 ms`, p99, p99 < 4, `${fmt(p99 ?? 0, 2)} ms`);
    }
  }
  console.log(`\n| target (${mode}) | measured | |\n|---|---:|---|\n${targets.join('\n')}`);
  if (mode === 'throughput') {
    // Every server here is CPU-bound on the same cores, so a req/s ratio of N needs about N times less CPU per
    // request: what that leaves the engine, given what the edge costs with the WAF off (same run).
    const rows = [];
    for (const [mix, times] of [['get', 10], ['post', 8]]) {
      const cpu = (sc) => med(sc, mix, cpuPerReq);
      const modsec = cpu('modsec'), on = cpu('edge-waf'), off = cpu('edge-off');
      if (modsec === null || on === null || off === null) continue;
      const budget = modsec / times;
      rows.push(`| ${mix} | ${fmt(modsec)} | ≤ ${fmt(budget)} | ${fmt(on)} | ${fmt(off)} | ${fmt(on - off)} | ≤ ${fmt(Math.max(0, budget - off))} |`);
    }
    if (rows.length) {
      console.log('\n| CPU budget (µs/request, this run) | nginx + ModSecurity v3 | edge for the target (÷10 GET, ÷8 POST) | edge WAF on | edge WAF off | the WAF\'s share | left for the WAF |');
      console.log(`|---|---:|---:|---:|---:|---:|---:|\n${rows.join('\n')}`);
    }
  }
  if (!enough) console.log('(disturbed run: foreign CPU above 15 % in too many runs; re-run on a quiet machine before judging)');
}
