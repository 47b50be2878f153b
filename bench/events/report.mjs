#!/usr/bin/env node
// Ratios of our event store against the SQLite anchor, from the results of one run
// (results/sqlite-*.json from anchor/sqlite-bench.mjs, results/ours-*.json from
// store-bench.mjs). Prints Markdown tables; --write also saves them as results/summary.md.
// Ratios are "how many times better ours is" (SQLite / ours for times, ours / SQLite for rates).
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const dir = process.env.EVENTS_BENCH_RESULTS || path.join(here, 'results');
const read = (name) => { try { return JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')); } catch { return null; } };
const S = { load: read('sqlite-load'), query: read('sqlite-query'), open: read('sqlite-open'), insert: read('sqlite-insert') };
const O = { load: read('ours-load'), disk: read('ours-disk'), query: read('ours-query'), open: read('ours-open'), insert: read('ours-insert') };
const J = read('jsonl-baseline');
// The same phases with an earlier build of the store (run.mjs --before), when present.
const B = { query: read('before-query'), open: read('before-open'), insert: read('before-insert') };
const out = [];
const p = (s = '') => out.push(s);
const f = (x, d = 2) => (x === undefined || x === null || Number.isNaN(x) ? '–' : Number(x) >= 100 ? Math.round(x).toLocaleString('en-US') : Number(x).toFixed(d));
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(a / b >= 10 ? 0 : 1)}×` : '–');
const med = (xs) => { const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b); return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : undefined; };
const mark = (ok) => (ok === undefined ? '' : ok ? 'yes' : '**no**');
const foreign = (rs) => { const xs = rs.filter(Boolean).map((c) => c.foreign_cpu_pct_of_box); return xs.length ? `${Math.min(...xs)}–${Math.max(...xs)}` : '–'; };

p(`# Event store vs SQLite anchor (one run)`);
p();
p(`Measured ${O.query?.measured_at ?? O.insert?.measured_at ?? '?'} (ours) / ${S.query?.measured_at ?? S.insert?.measured_at ?? '?'} (SQLite ${S.query?.sqlite ?? ''}), Node ${O.query?.node ?? ''}. Full data set: 1,000,000 WAF events, 5,000,000 access entries, 90 days, 10 sites; the same queries.json for both. "foreign" = CPU used by other tenants of this shared 2-core box during the measurement (% of the box): wall times are inflated when it is high, CPU times much less.`);

if (S.insert && O.insert) {
  p();
  p('## Durable append (acknowledged after fsync), median of repetitions');
  p();
  p('| DB | kind | batch | SQLite rows/s (FULL, 1 txn per batch) | ours rows/s, 1 writer | ratio | ours rows/s, 8 writers | ratio | SQLite CPU µs/row | ours CPU µs/row (1 / 8 writers) | bytes written/row SQLite / ours | target ≥150k rows/s and ≤6 µs (WAF, b100, full) |');
  p('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const target of ['full', 'empty']) for (const kind of ['waf', 'access']) for (const batch of [100, 1000]) {
    const s = S.insert.summary.find((r) => r.target === target && r.kind === kind && r.batch === batch && r.sync === 'FULL' && r.extra === 'none');
    const o1 = O.insert.summary.find((r) => r.target === target && r.kind === kind && r.batch === batch && r.writers === 1);
    const o8 = O.insert.summary.find((r) => r.target === target && r.kind === kind && r.batch === batch && r.writers === 8);
    if (!s || !o1) continue;
    const best = Math.max(o1.rows_per_s_median, o8?.rows_per_s_median ?? 0);
    const tgt = target === 'full' && kind === 'waf' && batch === 100 ? `${mark(best >= 150_000)} rows/s, ${mark(o1.cpu_us_per_row_median <= 6)} CPU` : '';
    p(`| ${target} | ${kind} | ${batch} | ${f(s.rows_per_s_median)} | ${f(o1.rows_per_s_median)} | ${ratio(o1.rows_per_s_median, s.rows_per_s_median)} | ${f(o8?.rows_per_s_median)} | ${ratio(o8?.rows_per_s_median, s.rows_per_s_median)} | ${f(s.cpu_us_per_row_median)} | ${f(o1.cpu_us_per_row_median)} / ${f(o8?.cpu_us_per_row_median)} | ${f(s.written_bytes_per_row_median)} / ${f(o1.written_bytes_per_row_median)} | ${tgt} |`);
  }
  const accRoll = S.insert.summary.find((r) => r.target === 'full' && r.kind === 'access' && r.batch === 100 && r.extra === 'rollup_app');
  const oAcc = O.insert.summary.find((r) => r.target === 'full' && r.kind === 'access' && r.batch === 100 && r.writers === 1);
  if (accRoll && oAcc) p(`\nAccess entries with rollups kept (SQLite rollup_app, batch 100, full DB): ${f(accRoll.rows_per_s_median)} rows/s, ${f(accRoll.cpu_us_per_row_median)} µs CPU/row; ours (rollups always kept): ${f(oAcc.rows_per_s_median)} rows/s (${ratio(oAcc.rows_per_s_median, accRoll.rows_per_s_median)}), ${f(oAcc.cpu_us_per_row_median)} µs CPU/row.`);
  const naive = (key) => [J?.summary?.append_rows_per_s?.find((r) => r.key === key), J?.summary?.append_cpu_us_per_row?.find((r) => r.key === key)];
  for (const key of ['waf|100|sync', 'waf|100|async', 'access|100|sync']) {
    const [r, c] = naive(key);
    if (r) p(`${key === 'waf|100|sync' ? '\n' : ''}Naive JSONL append in the same run (stringify + write + fsync, no index, no rollups; ${key}): ${f(r.median)} rows/s, ${f(c?.median)} µs CPU/row.`);
  }
  p(`\nForeign load during our insert runs: ${foreign(O.insert.runs.map((r) => r.cpu))}%; during SQLite's: ${S.insert.summary.map((r) => r.foreign_cpu_pct).flat().length ? `${Math.min(...S.insert.summary.flatMap((r) => r.foreign_cpu_pct))}–${Math.max(...S.insert.summary.flatMap((r) => r.foreign_cpu_pct))}` : '–'}%.`);
}

if (S.query && O.query) {
  const targets = { ip: [1, 5], rule: [1, 5], cidr: [1, 5], cidr_wide: [1, 5], none: [1, undefined], group: [1, undefined], uri: [30, 80] };
  p();
  p('## /waf-logs: page 1 + exact total (ms), median over rounds of each round\'s p50 / p99, 200 queries per row');
  p();
  p('| filter | SQLite wall p50 / p99 | ours wall p50 / p99 | ratio p50 / p99 | SQLite CPU p50 / p99 | ours CPU p50 / p99 | ratio CPU p50 | page 50 + total SQLite / ours p50 | mean total SQLite / ours | target (p50 / p99 ms) met | foreign % SQLite / ours |');
  p('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  const pick = (q, name, k, stat) => med(q.rounds.map((r) => r.waf[name]?.[k]?.[stat]));
  for (const name of ['none', 'ip', 'rule', 'group', 'uri', 'cidr', 'cidr_wide']) {
    const s = (k, st) => pick(S.query, name, k, st);
    const o = (k, st) => pick(O.query, name, k, st);
    const [t50, t99] = targets[name];
    const ok = o('page1_plus_total', 'p50') <= t50 && (t99 === undefined || o('page1_plus_total', 'p99') <= t99);
    const okCpu = o('page1_plus_total_cpu', 'p50') <= t50 && (t99 === undefined || o('page1_plus_total_cpu', 'p99') <= t99);
    p(`| ${name} | ${f(s('page1_plus_total', 'p50'))} / ${f(s('page1_plus_total', 'p99'))} | ${f(o('page1_plus_total', 'p50'), 3)} / ${f(o('page1_plus_total', 'p99'))} | ${ratio(s('page1_plus_total', 'p50'), o('page1_plus_total', 'p50'))} / ${ratio(s('page1_plus_total', 'p99'), o('page1_plus_total', 'p99'))} | ${f(s('page1_plus_total_cpu', 'p50'))} / ${f(s('page1_plus_total_cpu', 'p99'))} | ${f(o('page1_plus_total_cpu', 'p50'), 3)} / ${f(o('page1_plus_total_cpu', 'p99'))} | ${ratio(s('page1_plus_total_cpu', 'p50'), o('page1_plus_total_cpu', 'p50'))} | ${f(s('page50_plus_total', 'p50'))} / ${f(o('page50_plus_total', 'p50'), 3)} | ${f(med(S.query.rounds.map((r) => r.waf[name]?.mean_total)), 0)} / ${f(med(O.query.rounds.map((r) => r.waf[name]?.mean_total)), 0)} | wall ${mark(ok)}, CPU ${mark(okCpu)} (≤ ${t50}${t99 ? ` / ${t99}` : ''}) | ${foreign(S.query.rounds.map((r) => r.waf[name]?.cpu))} / ${foreign(O.query.rounds.map((r) => r.waf[name]?.cpu))} |`);
  }
  p();
  p('## /analytics per site (ms), 200 queries per period (SQLite: --analytics-n of them)');
  p();
  p('| period | SQLite rollup + exact distinct p50 / p99 | SQLite rollup counts only p50 | ours p50 / p99 (HLL) | ratio p50 | ours CPU p50 | ours vs exact: counts equal, unique-visitor error max / mean | target 90d p50 ≤ 5 ms |');
  p('|---|---:|---:|---:|---:|---:|---|---|');
  for (const period of ['24h', '7d', '30d', '90d']) {
    const s = S.query.rounds[0].analytics?.[period];
    const o = O.query.rounds[0].analytics[period];
    if (!s || !o) continue;
    const err = o.unique_rel_error ? `${(o.unique_rel_error.max * 100).toFixed(2)}% / ${(o.unique_rel_error.mean * 100).toFixed(2)}%` : 'not checked';
    p(`| ${period} | ${f(s.rollup.both.p50)} / ${f(s.rollup.both.p99)} | ${f(s.rollup.hourly_counts.p50)} | ${f(o.both.p50, 3)} / ${f(o.both.p99)} | ${ratio(s.rollup.both.p50, o.both.p50)} | ${f(o.both_cpu.p50, 3)} | ${o.checked_against_sqlite ? (o.count_mismatches === 0 ? 'yes' : `**${o.count_mismatches} mismatches**`) : '–'}, ${err} | ${period === '90d' ? `wall ${mark(o.both.p50 <= 5)}, CPU ${mark(o.both_cpu.p50 <= 5)}` : ''} |`);
  }
  p();
  p(`Resident memory after all queries: SQLite ${f(S.query.rss_mb_after_queries, 1)} MB (peak ${f(S.query.max_rss_mb, 1)}), ours ${f(O.query.rss_mb_after_queries, 1)} MB (peak ${f(O.query.max_rss_mb, 1)}; target ≤ 400 MB: ${mark(O.query.max_rss_mb <= 400)}). Our in-process open before the queries: ${f(O.query.open_ms, 0)} ms.`);
}

if (S.open && O.open) {
  p();
  p('## Start: fresh process to first answers (ms, median of 5)');
  p();
  p(`Measured SQLite ${S.open.measured_at}, ours ${O.open.measured_at}. Cold = page cache dropped first.`);
  p();
  p('| cache | SQLite start → first results | ours start → first results | SQLite open | ours open | first page + total SQLite / ours | first 90d analytics SQLite / ours | then IP page SQLite / ours | then URI page SQLite / ours | RSS MB SQLite / ours | target ≤ 2 s |');
  p('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const m of ['cold', 'warm']) {
    const s = S.open.median[m], o = O.open.median[m];
    p(`| ${m} | ${f(s.since_process_start_ms)} | ${f(o.since_process_start_ms)} | ${f(s.open_ms)} | ${f(o.open_ms)} | ${f(s.first_waf_page_ms)} / ${f(o.first_waf_page_ms)} | ${f(s.first_rollup_90d_ms)} / ${f(o.first_rollup_90d_ms)} | ${f(s.then_ip_page_ms)} / ${f(o.then_ip_page_ms)} | ${f(s.then_uri_like_page_ms)} / ${f(o.then_uri_like_page_ms)} | ${f(s.rss_mb, 1)} / ${f(o.rss_mb, 1)} | ${mark(o.since_process_start_ms <= 2000)} |`);
  }
}

if (B.insert && O.insert) {
  p();
  p(`## Before / after: durable append, the earlier build (${B.insert.store_dist ?? '?'}) and this one in the same run`);
  p();
  p('| DB | kind | batch | writers | SQLite rows/s | before rows/s | after rows/s | after / before | after / SQLite | SQLite CPU µs/row | before CPU µs/row | after CPU µs/row | before / after CPU | foreign % before / after |');
  p('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const target of ['full', 'empty']) for (const kind of ['waf', 'access']) for (const batch of [100, 1000]) for (const writers of [1, 8]) {
    const find = (R) => R.insert.summary.find((r) => r.target === target && r.kind === kind && r.batch === batch && r.writers === writers);
    const b = find(B), a = find(O);
    const s = S.insert?.summary.find((r) => r.target === target && r.kind === kind && r.batch === batch && r.sync === 'FULL' && r.extra === 'none');
    if (!a || !b) continue;
    const fr = (r) => (r.foreign_cpu_pct.length ? `${Math.min(...r.foreign_cpu_pct)}–${Math.max(...r.foreign_cpu_pct)}` : '–');
    p(`| ${target} | ${kind} | ${batch} | ${writers} | ${f(s?.rows_per_s_median)} | ${f(b.rows_per_s_median)} | ${f(a.rows_per_s_median)} | ${ratio(a.rows_per_s_median, b.rows_per_s_median)} | ${ratio(a.rows_per_s_median, s?.rows_per_s_median)} | ${f(s?.cpu_us_per_row_median)} | ${f(b.cpu_us_per_row_median)} | ${f(a.cpu_us_per_row_median)} | ${ratio(b.cpu_us_per_row_median, a.cpu_us_per_row_median)} | ${fr(b)} / ${fr(a)} |`);
  }
}

if (B.query && O.query) {
  p();
  p('## Before / after: /waf-logs page 1 + exact total (ms), same run');
  p();
  p('| filter | before wall p50 / p99 | after wall p50 / p99 | before CPU p50 / p99 | after CPU p50 / p99 | foreign % before / after |');
  p('|---|---:|---:|---:|---:|---:|');
  const pick = (q, name, k, stat) => med(q.rounds.map((r) => r.waf[name]?.[k]?.[stat]));
  for (const name of ['none', 'ip', 'rule', 'group', 'uri', 'cidr', 'cidr_wide']) {
    const b = (k, st) => pick(B.query, name, k, st);
    const a = (k, st) => pick(O.query, name, k, st);
    p(`| ${name} | ${f(b('page1_plus_total', 'p50'), 3)} / ${f(b('page1_plus_total', 'p99'))} | ${f(a('page1_plus_total', 'p50'), 3)} / ${f(a('page1_plus_total', 'p99'))} | ${f(b('page1_plus_total_cpu', 'p50'), 3)} / ${f(b('page1_plus_total_cpu', 'p99'))} | ${f(a('page1_plus_total_cpu', 'p50'), 3)} / ${f(a('page1_plus_total_cpu', 'p99'))} | ${foreign(B.query.rounds.map((r) => r.waf[name]?.cpu))} / ${foreign(O.query.rounds.map((r) => r.waf[name]?.cpu))} |`);
  }
  p();
  p(`Resident memory after all queries: before ${f(B.query.rss_mb_after_queries, 1)} MB (peak ${f(B.query.max_rss_mb, 1)}), after ${f(O.query.rss_mb_after_queries, 1)} MB (peak ${f(O.query.max_rss_mb, 1)}).`);
}

if (B.open && O.open) {
  p();
  p('## Before / after: start to first answers (ms, median of 5), same run');
  p();
  p('| cache | before | after | before open | after open | process CPU ms before / after | RSS MB before / after |');
  p('|---|---:|---:|---:|---:|---:|---:|');
  for (const m of ['cold', 'warm']) {
    const b = B.open.median[m], a = O.open.median[m];
    p(`| ${m} | ${f(b.since_process_start_ms)} | ${f(a.since_process_start_ms)} | ${f(b.open_ms)} | ${f(a.open_ms)} | ${f(b.process_cpu_ms)} / ${f(a.process_cpu_ms)} | ${f(b.rss_mb, 1)} / ${f(a.rss_mb, 1)} |`);
  }
}

const ourBytes = O.disk?.bytes ?? O.load?.bytes;
if (S.load && ourBytes) {
  const sq = S.load.files.db + S.load.files.wal;
  p();
  p('## Disk');
  p();
  p(`${O.disk ? `Ours measured ${O.disk.measured_at}. ` : ''}SQLite database: ${f(sq / 1e6, 0)} MB${S.load.fts ? ' (with FTS5)' : ' (no FTS index)'}. Ours: ${f(ourBytes.total / 1e6, 0)} MB = segments ${f(ourBytes.segments / 1e6, 0)} MB + index snapshots ${f(ourBytes.index / 1e6, 0)} MB: ${(ourBytes.total / sq).toFixed(2)}× SQLite (target ≤ 1.3×: ${mark(ourBytes.total / sq <= 1.3)}).`);
  if (O.load) p(`Bulk load: SQLite WAF ${S.load.waf_load_s} s + access ${S.load.access_load_s} s (synchronous=OFF, 20k-row transactions); ours WAF ${O.load.waf_load_s} s + access ${O.load.access_load_s} s (durable appends of 5,000, 4 in flight) + snapshot ${O.load.close_with_snapshot_s} s.`);
}

const text = out.join('\n') + '\n';
process.stdout.write(text);
if (process.argv.includes('--write')) fs.writeFileSync(path.join(dir, 'summary.md'), text);
