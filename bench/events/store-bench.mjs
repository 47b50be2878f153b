#!/usr/bin/env node
// Our event store (daemon/store/events, built to dist/) on the anchor's workload: the same
// generated data (anchor/gen.mjs), the same queries.json, the same measuring code
// (anchor/lib/measure.mjs), so figures line up with anchor/sqlite-bench.mjs row for row.
//
//   node bench/events/store-bench.mjs load   [--batch 5000] [--inflight 4]
//   node bench/events/store-bench.mjs query  [--rounds 2]
//   node bench/events/store-bench.mjs open   [--reps 5]
//   node bench/events/store-bench.mjs insert [--rows 100000] [--reps 3]
//   node bench/events/store-bench.mjs disk
//
// Build first: npx tsc -p bench/events/tsconfig.json. Data: $EVENTS_ANCHOR_DATA (default
// <tmpdir>/events-anchor); our store lives in <data>/ours/events. Results:
// bench/events/results/ours-<phase>.json (or $EVENTS_BENCH_RESULTS).
// Another build of the store (e.g. an earlier commit, for before/after figures of one run):
// EVENTS_STORE_DIST=<its tsc outDir> EVENTS_BENCH_TAG=before -> results/before-<phase>.json.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { readJsonl, loadRows } from './anchor/lib/jsonl.mjs';
import { dataDir, wafFile, accessFile, queriesFile, metaFile } from './anchor/lib/paths.mjs';
import { nowMs, summarize, median, cpuWindow, rssMb, maxRssMb, dropCaches } from './anchor/lib/measure.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const storeDist = process.env.EVENTS_STORE_DIST || path.join(here, '../../dist');
const tag = process.env.EVENTS_BENCH_TAG || 'ours';
const { openJsonlEventStore } = await import(path.join(path.resolve(storeDist), 'daemon/store/events/jsonl-event-store.js'));
const storeDir = path.join(dataDir, 'ours', 'events');
const resultsDir = process.env.EVENTS_BENCH_RESULTS || path.join(here, 'results');
const argv = process.argv.slice(2);
const cmd = argv[0];
const opt = (name, dflt) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? Number(argv[i + 1]) : dflt; };
const log = (...a) => console.error(new Date().toISOString().slice(11, 19), ...a);
const quiet = { info() {}, warn: (m, f) => log('store warn:', m, JSON.stringify(f ?? {})), error: (m, f) => log('store error:', m, JSON.stringify(f ?? {})) };
const Q = () => JSON.parse(fs.readFileSync(queriesFile, 'utf8'));
const META = () => JSON.parse(fs.readFileSync(metaFile, 'utf8'));

function writeResult(name, obj) {
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, `${tag}-${name}.json`), JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, store_dist: storeDist, ...obj }, null, 1));
  log(`wrote results/${tag}-${name}.json`);
}

function duBytes(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? duBytes(p) : fs.statSync(p).size;
  }
  return total;
}

const open = (extra = {}) => openJsonlEventStore({ dir: storeDir, clock: () => META().end_ms, logger: quiet, retentionEveryMs: 0, snapshotEveryMs: 0, ...extra });
// Fresh objects without `id`, as the ingestion API (zod output) and the proxy hand them to
// the store. (`delete r.id` would leave them in V8's slow dictionary mode, where serialising
// costs ~25% more: a cost no caller of the store has.)
const stripId = ({ id: _id, ...r }) => r;

// ---------------------------------------------------------------- load
async function load() {
  fs.rmSync(storeDir, { recursive: true, force: true });
  const batch = opt('batch', 5000), inflight = opt('inflight', 4);
  const store = await open();
  const out = {};
  for (const [kind, file, append] of [['waf', wafFile, (b) => store.appendWafEvents(b)], ['access', accessFile, (b) => store.appendAccessEntries(b)]]) {
    const cpu = cpuWindow();
    const t0 = nowMs();
    const pending = [];
    let rows = [], n = 0;
    for (const r of readJsonl(file)) {
      rows.push(stripId(r));
      if (rows.length === batch) {
        pending.push(append(rows)); n += rows.length; rows = [];
        if (pending.length >= inflight) await pending.shift();
        if (n % 1_000_000 === 0) log(kind, n);
      }
    }
    if (rows.length) { pending.push(append(rows)); n += rows.length; }
    await Promise.all(pending);
    out[`${kind}_rows`] = n;
    out[`${kind}_load_s`] = +((nowMs() - t0) / 1000).toFixed(1);
    out[`${kind}_cpu`] = cpu();
    log(kind, 'loaded', n, out[`${kind}_load_s`], 's', 'rss', rssMb());
  }
  out.rss_mb_after_load = rssMb();
  const t0 = nowMs();
  await store.close();
  out.close_with_snapshot_s = +((nowMs() - t0) / 1000).toFixed(1);
  out.bytes = { total: duBytes(storeDir), index: duBytes(path.join(storeDir, 'index')) };
  out.bytes.segments = out.bytes.total - out.bytes.index;
  log('disk', JSON.stringify(out.bytes));
  writeResult('load', out);
}

// ---------------------------------------------------------------- queries
const SEARCH = {
  none: () => undefined,
  ip: (q) => q.ip,
  rule: (q) => q.rule_id,
  group: (q) => q.group,
  uri: (q) => q.term,
  cidr: (q) => q.cidr,
  cidr_wide: (q) => q.cidr,
};

async function timedAsync(fn) {
  const c0 = process.cpuUsage();
  const t0 = nowMs();
  const result = await fn();
  const wall = nowMs() - t0;
  const c = process.cpuUsage(c0);
  return [wall, (c.user + c.system) / 1000, result];
}

async function exactAnalytics(q) {
  // Exact answers from the anchor's SQLite database (its rollup tables), when it exists, to
  // check our counts (must be equal) and our HyperLogLog estimates (error).
  const dbFile = path.join(dataDir, 'anchor.db');
  const anchorDir = process.env.EVENTS_ANCHOR_DIR || '/tmp/events-anchor-deps';
  if (!fs.existsSync(dbFile)) return null;
  let Database;
  try {
    const { createRequire } = await import('node:module');
    Database = createRequire(path.join(anchorDir, 'package.json'))('better-sqlite3');
  } catch { return null; }
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  const hours = db.prepare('SELECT sum(requests) r, sum(blocked) b FROM access_hourly WHERE site_id = ? AND hour >= ? AND hour < ?');
  const distinct = db.prepare('SELECT count(DISTINCT client_ip) u FROM access_hourly_ip WHERE site_id = ? AND hour >= ? AND hour < ?');
  const out = {};
  const endH = q.now_ms / 3_600_000;
  for (const [period, h] of Object.entries({ '24h': 24, '7d': 168, '30d': 720, '90d': 2160 })) {
    for (let site = 1; site <= 10; site++) {
      const a = hours.get(site, endH - h, endH);
      out[`${period}|${site}`] = { requests: a.r ?? 0, blocked: a.b ?? 0, unique: distinct.get(site, endH - h, endH).u };
    }
  }
  db.close();
  return out;
}

async function query() {
  const q = Q();
  const rounds = opt('rounds', 2);
  const t0 = nowMs();
  const store = await open();
  const openMs = nowMs() - t0;
  // A daemon's steady state: the sites unpacked in the background after the open (2026-11-26 on)
  // are start-up work, measured by the open phase (first answers), not by every query's CPU here.
  await store.warm;
  log('open', openMs.toFixed(0), 'ms', 'warm', (nowMs() - t0).toFixed(0), 'ms', 'rss', rssMb());
  const out = { open_ms: +openMs.toFixed(1), rounds: [] };
  const run = async (name, params) => {
    const search = SEARCH[name];
    const ask = (p, page) => store.searchWafLogs({ site_id: p.site, page, per_page: q.page_size, search: search(p) });
    for (const p of params.slice(0, 50)) await ask(p, 1);
    const cpu = cpuWindow();
    const w1 = [], w50 = [], c1 = [], c50 = [];
    let totalSum = 0, nonEmpty50 = 0;
    const byTerm = {};
    for (const p of params) {
      const [a, ca, r1] = await timedAsync(() => ask(p, 1));
      const [b, cb, r50] = await timedAsync(() => ask(p, q.deep_page));
      if (r1.logs.length !== Math.min(r1.pagination.total, q.page_size)) throw new Error(`${name}: page 1 has ${r1.logs.length} rows, total ${r1.pagination.total}`);
      w1.push(a); w50.push(b); c1.push(ca); c50.push(cb);
      totalSum += r1.pagination.total;
      if (r50.logs.length) nonEmpty50++;
      if (p.term) (byTerm[p.term] ??= { ms: [], totals: [] }), byTerm[p.term].ms.push(a), byTerm[p.term].totals.push(r1.pagination.total);
    }
    const res = { page1_plus_total: summarize(w1), page50_plus_total: summarize(w50), page1_plus_total_cpu: summarize(c1), page50_plus_total_cpu: summarize(c50),
      mean_total: Math.round(totalSum / params.length), page50_nonempty: nonEmpty50, cpu: cpu() };
    if (Object.keys(byTerm).length) res.page1_plus_total_by_term = Object.fromEntries(Object.entries(byTerm).map(([t, v]) => [t, { median_ms: +median(v.ms).toFixed(2), median_total: median(v.totals) }]));
    log(`waf ${name}`, 'p1+total p50', res.page1_plus_total.p50.toFixed(3), 'p99', res.page1_plus_total.p99.toFixed(3), 'cpu p50', res.page1_plus_total_cpu.p50.toFixed(3),
      'p50+total p50', res.page50_plus_total.p50.toFixed(3), 'p99', res.page50_plus_total.p99.toFixed(3), 'mean total', res.mean_total, 'foreign', res.cpu.foreign_cpu_pct_of_box);
    return res;
  };
  const exact = await exactAnalytics(q);
  const runAnalytics = async (period) => {
    const params = q.analytics[period];
    for (const p of params.slice(0, 10)) await store.analytics({ site_id: p.site, period, now: q.now_ms });
    const cpu = cpuWindow();
    const w = [], c = [], errs = [];
    let mismatches = 0;
    for (const p of params) {
      const [a, ca, r] = await timedAsync(() => store.analytics({ site_id: p.site, period, now: q.now_ms }));
      w.push(a); c.push(ca);
      const x = exact?.[`${period}|${p.site}`];
      if (x) {
        if (x.requests !== r.total_requests || x.blocked !== r.requests_blocked) mismatches++;
        errs.push(Math.abs(r.unique_visitors - x.unique) / Math.max(1, x.unique));
      }
      if (r.hourly_data.length !== { '24h': 24, '7d': 168, '30d': 720, '90d': 2160 }[period]) throw new Error('hourly_data length');
    }
    const res = { both: summarize(w), both_cpu: summarize(c), cpu: cpu(), checked_against_sqlite: !!exact, count_mismatches: mismatches,
      unique_rel_error: errs.length ? { max: +Math.max(...errs).toFixed(4), mean: +(errs.reduce((s, e) => s + e, 0) / errs.length).toFixed(4) } : null };
    log(`analytics ${period}`, 'p50', res.both.p50.toFixed(3), 'p99', res.both.p99.toFixed(3), 'cpu p50', res.both_cpu.p50.toFixed(3), 'mismatches', mismatches, 'uv err', JSON.stringify(res.unique_rel_error));
    return res;
  };
  for (let round = 1; round <= rounds; round++) {
    const r = { round, waf: {}, analytics: {} };
    for (const name of Object.keys(SEARCH)) r.waf[name] = await run(name, q.waf[name]);
    for (const period of ['24h', '7d', '30d', '90d']) r.analytics[period] = await runAnalytics(period);
    out.rounds.push(r);
  }
  out.rss_mb_after_queries = rssMb();
  out.max_rss_mb = maxRssMb();
  await store.close();
  writeResult('query', out);
}

// ---------------------------------------------------------------- open (cold / warm)
async function openProbe() {
  const startMs = performance.now();
  const q = Q();
  const t0 = nowMs();
  const store = await open();
  const tOpen = nowMs();
  const first = await store.searchWafLogs({ site_id: 1, page: 1, per_page: 50 });
  const tWaf = nowMs();
  const an = await store.analytics({ site_id: 1, period: '90d', now: q.now_ms });
  const tAn = nowMs();
  await store.searchWafLogs({ site_id: q.waf.ip[0].site, page: 1, per_page: 50, search: q.waf.ip[0].ip });
  const tIp = nowMs();
  await store.searchWafLogs({ site_id: 1, page: 1, per_page: 50, search: 'etc/passwd' });
  const tUri = nowMs();
  console.log(JSON.stringify({
    open_ms: tOpen - t0, first_waf_page_ms: tWaf - tOpen, first_rollup_90d_ms: tAn - tWaf, then_ip_page_ms: tIp - tAn, then_uri_like_page_ms: tUri - tIp,
    since_process_start_ms: tAn - t0 + startMs, rows: first.logs.length, total: first.pagination.total, hours: an.hourly_data.length, rss_mb: rssMb(),
    // CPU of the whole process so far (start, open, the four queries): what foreign load cannot inflate.
    process_cpu_ms: (({ user, system }) => (user + system) / 1000)(process.cpuUsage()),
  }));
  process.exit(0); // no close: a probe must not rewrite the snapshot
}

async function openPhase() {
  const reps = opt('reps', 5);
  const out = { cold: [], warm: [] };
  for (let i = 0; i < reps; i++) {
    for (const mode of ['cold', 'warm']) {
      const dropped = mode === 'cold' ? dropCaches() : false;
      if (mode === 'cold') out.cache_drop_permitted = dropped;
      const t0 = nowMs();
      const child = spawnSync(process.execPath, [new URL(import.meta.url).pathname, 'open-probe'], { encoding: 'utf8' });
      const wall = nowMs() - t0;
      if (child.status !== 0) throw new Error(child.stderr);
      out[mode].push({ ...JSON.parse(child.stdout), wall_spawn_to_exit_ms: wall });
    }
  }
  const med = (xs, k) => +median(xs.map((x) => x[k])).toFixed(2);
  out.median = Object.fromEntries(['cold', 'warm'].map((m) => [m, Object.fromEntries(
    ['open_ms', 'first_waf_page_ms', 'first_rollup_90d_ms', 'then_ip_page_ms', 'then_uri_like_page_ms', 'since_process_start_ms', 'process_cpu_ms', 'wall_spawn_to_exit_ms', 'rss_mb'].map((k) => [k, med(out[m], k)]))]));
  log(JSON.stringify(out.median));
  writeResult('open', out);
}

// ---------------------------------------------------------------- durable appends
// "sequential": one append in flight, the next starts when it is acknowledged (what the
// SQLite anchor does: one transaction per batch). "concurrent": 8 writers (e.g. ingestion
// requests) append at once; group commit lets them share fsyncs.
async function insertRun({ kind, batch, target, writers, rows, src }) {
  const scratch = path.join(dataDir, 'ours', 'insert-scratch');
  let store;
  if (target === 'empty') {
    fs.rmSync(scratch, { recursive: true, force: true });
    store = await openJsonlEventStore({ dir: scratch, logger: quiet, retentionEveryMs: 0, snapshotEveryMs: 0 });
  } else {
    store = await open();
    await store.warm; // sites unpacked in the background after open (2026-11-26 on): start-up work, not append cost
  }
  const append = kind === 'waf' ? (b) => store.appendWafEvents(b) : (b) => store.appendAccessEntries(b);
  const lat = [];
  let next = 0;
  const cpu = cpuWindow();
  const t0 = nowMs();
  const writer = async () => {
    while (next < rows) {
      const b = src.slice(next, next + batch);
      next += batch;
      const t = nowMs();
      await append(b);
      lat.push(nowMs() - t);
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
  const secs = (nowMs() - t0) / 1000;
  const c = cpu();
  const res = { kind, batch, target, writers, rows, rows_per_s: Math.round(rows / secs), cpu_us_per_row: +((c.own_cpu_ms * 1000) / rows).toFixed(2),
    written_bytes_per_row: Math.round(c.wchar_bytes / rows), commit_ms: summarize(lat), cpu: c };
  await store.close();
  if (target === 'empty') fs.rmSync(scratch, { recursive: true, force: true });
  return res;
}

async function insert() {
  const rows = opt('rows', 100_000);
  const reps = opt('reps', 3);
  const shiftDays = 90; // new rows arrive after the data set's last hour, as in the anchor
  const base = { waf: loadRows(wafFile, rows).map(stripId), access: loadRows(accessFile, rows).map(stripId) };
  const shifted = {
    waf: base.waf.map((e) => ({ ...e, timestamp_ms: e.timestamp_ms + shiftDays * 86_400_000 })),
    access: base.access.map((e) => ({ ...e, timestamp: e.timestamp + shiftDays * 86_400 })),
  };
  // The full store must stay the query data set: remember its segments, drop the new ones after,
  // and put its index files back (a snapshot that lists the dropped segments would make the
  // next open rebuild the whole index without them).
  const before = new Set(fs.readdirSync(storeDir));
  const indexBackup = path.join(dataDir, 'ours', 'index-backup');
  fs.rmSync(indexBackup, { recursive: true, force: true });
  fs.cpSync(path.join(storeDir, 'index'), indexBackup, { recursive: true });
  const restoreIndex = () => {
    fs.rmSync(path.join(storeDir, 'index'), { recursive: true, force: true });
    fs.cpSync(indexBackup, path.join(storeDir, 'index'), { recursive: true });
  };
  const variants = [];
  for (const target of ['empty', 'full']) for (const batch of [100, 1000]) for (const kind of ['waf', 'access']) for (const writers of [1, 8]) variants.push({ kind, batch, target, writers });
  const runs = [];
  try {
    for (let rep = 1; rep <= reps; rep++) {
      for (const v of variants) {
        const src = v.target === 'full' ? shifted[v.kind] : base[v.kind];
        const r = { ...(await insertRun({ ...v, rows, src })), rep };
        runs.push(r);
        log(`rep ${rep} ${r.target} ${r.kind} b${r.batch} w${r.writers}: ${r.rows_per_s} rows/s, ${r.cpu_us_per_row} cpu-us/row, ${r.written_bytes_per_row} B/row, commit p50 ${r.commit_ms.p50.toFixed(2)} p99 ${r.commit_ms.p99.toFixed(2)} ms, foreign ${r.cpu.foreign_cpu_pct_of_box}%`);
        if (v.target === 'full') {
          for (const f of fs.readdirSync(storeDir)) if (!before.has(f)) fs.rmSync(path.join(storeDir, f), { force: true });
          restoreIndex();
        }
      }
    }
  } finally {
    for (const f of fs.readdirSync(storeDir)) if (!before.has(f)) fs.rmSync(path.join(storeDir, f), { force: true });
    restoreIndex();
    fs.rmSync(indexBackup, { recursive: true, force: true });
  }
  const groups = {};
  for (const r of runs) (groups[`${r.target}|${r.kind}|${r.batch}|${r.writers}`] ??= []).push(r);
  const summary = Object.entries(groups).map(([k, rs]) => {
    const [target, kind, batch, writers] = k.split('|');
    return { target, kind, batch: Number(batch), writers: Number(writers),
      rows_per_s_median: Math.round(median(rs.map((r) => r.rows_per_s))), rows_per_s_all: rs.map((r) => r.rows_per_s),
      cpu_us_per_row_median: +median(rs.map((r) => r.cpu_us_per_row)).toFixed(2), written_bytes_per_row_median: median(rs.map((r) => r.written_bytes_per_row)),
      commit_p50_ms_median: +median(rs.map((r) => r.commit_ms.p50)).toFixed(3), commit_p99_ms_median: +median(rs.map((r) => r.commit_ms.p99)).toFixed(3),
      foreign_cpu_pct: rs.map((r) => r.cpu.foreign_cpu_pct_of_box) };
  });
  writeResult('insert', { rows_per_run: rows, reps, summary, runs });
}

// ---------------------------------------------------------------- disk (as the store is now)
function disk() {
  const bytes = { total: duBytes(storeDir), index: duBytes(path.join(storeDir, 'index')) };
  bytes.segments = bytes.total - bytes.index;
  log('disk', JSON.stringify(bytes));
  writeResult('disk', { bytes });
}

const phases = { load, query, open: openPhase, insert, disk, 'open-probe': openProbe };
if (!phases[cmd]) {
  console.error('usage: node bench/events/store-bench.mjs load|query|open|insert [options]');
  process.exit(2);
}
await phases[cmd]();
