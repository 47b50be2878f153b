#!/usr/bin/env node
// One durable-append variant of our event store, quick to repeat and to profile: where
// store-bench.mjs insert runs the whole matrix, this runs one cell (or a few), several times,
// and prints rows/s, CPU µs per row and the foreign load of each run.
//
//   node bench/events/append-bench.mjs [--kind waf|access] [--batch 100] [--writers 1,8]
//        [--rows 100000] [--reps 3] [--target empty|full] [--dist A,B] [--profile DIR]
//        [--commit 'JSON;JSON']  (group commit options per --dist entry, e.g. '{"depth":1};{}') [--warm-sites]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/events/append-bench.mjs --writers 8
//
// Build first: npx tsc -p bench/events/tsconfig.json. Rows come from the anchor's generated
// data ($EVENTS_ANCHOR_DATA/waf.jsonl, access.jsonl). "empty" appends to a new directory;
// "full" to the loaded data set (<data>/ours/events; new day segments removed afterwards).
import fs from 'node:fs';
import path from 'node:path';
import { loadRows } from './anchor/lib/jsonl.mjs';
import { dataDir, wafFile, accessFile, metaFile } from './anchor/lib/paths.mjs';
import { nowMs, summarize, median, cpuWindow } from './anchor/lib/measure.mjs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';

const here = path.dirname(new URL(import.meta.url).pathname);
const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : dflt; };
// --dist A,B: builds to compare (each a tsc outDir), run interleaved rep by rep so that both
// see the same foreign load; default: this checkout's dist/.
const dists = String(opt('dist', path.join(here, '../../dist'))).split(',');
// --commit: the store's `commit` option for each --dist entry (';'-separated JSON), so one
// build can be compared with itself at other pipeline settings; builds before it ignore it.
const commitOpts = String(opt('commit', '')).split(';').map((j) => (j.trim() ? JSON.parse(j) : undefined));
const stores = await Promise.all(dists.map(async (d) => (await import(path.resolve(d, 'daemon/store/events/jsonl-event-store.js'))).openJsonlEventStore));
const kind = opt('kind', 'waf');
const batch = Number(opt('batch', 100));
const writersList = String(opt('writers', '1,8')).split(',').map(Number);
const rows = Number(opt('rows', 100_000));
const reps = Number(opt('reps', 3));
const target = opt('target', 'empty');
// --profile DIR: a CPU profile of the append window only (not the open, close or data load).
const profileDir = opt('profile', null);
// --warm-sites: before the window, wait for the store's background unpacking of the sites
// restored packed (store.warm) and ask one query per site of the rows (a page for WAF,
// analytics for access), so that no unpacking falls in the window: the steady state of a
// running daemon. Its CPU is reported apart (warm_ms); without it, "full" includes each
// site's one-time unpack after the open.
const warmSites = argv.includes('--warm-sites');
const log = (...a) => console.error(new Date().toISOString().slice(11, 19), ...a);
const quiet = { info() {}, warn: (m, f) => log('store warn:', m, JSON.stringify(f ?? {})), error: (m, f) => log('store error:', m, JSON.stringify(f ?? {})) };

// Garbage collection pauses (main thread) inside the append window, by kind: the full store
// has a ~230 MB heap to mark where the empty one has ~20 MB.
const gcKinds = { [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major', [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb' };
const gcEntries = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) gcEntries.push(e); }).observe({ entryTypes: ['gc'] });
const gcIn = (from, to) => {
  const out = { ms: 0, major: 0 };
  for (const e of gcEntries) {
    if (e.startTime < from || e.startTime > to) continue;
    const k = gcKinds[e.detail?.kind] ?? 'other';
    out[k] = +((out[k] ?? 0) + e.duration).toFixed(1);
    out.ms = +(out.ms + e.duration).toFixed(1);
  }
  gcEntries.length = 0;
  return out;
};

const shiftDays = 90; // as store-bench: new rows arrive after the data set's last hour
// Fresh objects without `id`, as the ingestion API (zod output) and the proxy hand them over.
// (`delete r.id` would leave them in V8's slow dictionary mode: JSON.stringify then costs
// ~25% more, a cost no caller of the store has.)
const shift = target === 'full' ? shiftDays : 0;
const src = loadRows(kind === 'waf' ? wafFile : accessFile, rows).map(({ id: _id, ...r }) =>
  kind === 'waf' ? { ...r, timestamp_ms: r.timestamp_ms + shift * 86_400_000 } : { ...r, timestamp: r.timestamp + shift * 86_400 });
const batches = [];
for (let i = 0; i < src.length; i += batch) {
  const b = src.slice(i, i + batch);
  batches.push(b);
}

const fullDir = path.join(dataDir, 'ours', 'events');
const scratch = path.join(dataDir, 'ours', 'append-scratch');

function saveIndex(dir) {
  const backup = path.join(dataDir, 'ours', 'index-backup');
  fs.rmSync(backup, { recursive: true, force: true });
  fs.cpSync(path.join(dir, 'index'), backup, { recursive: true });
  return backup;
}

function restoreIndex(dir, backup) {
  fs.rmSync(path.join(dir, 'index'), { recursive: true, force: true });
  fs.renameSync(backup, path.join(dir, 'index'));
}

async function runOnce(writers, openJsonlEventStore, commit) {
  const dir = target === 'full' ? fullDir : scratch;
  if (target === 'empty') fs.rmSync(scratch, { recursive: true, force: true });
  const before = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  // The data set's index files are put back afterwards: a snapshot that lists the new (then
  // deleted) segments would make the next open rebuild the index without them.
  const indexBackup = target === 'full' ? saveIndex(dir) : null;
  const clock = target === 'full' ? () => JSON.parse(fs.readFileSync(metaFile, 'utf8')).end_ms : Date.now;
  const store = await openJsonlEventStore({ dir, logger: quiet, retentionEveryMs: 0, snapshotEveryMs: 0, clock, commit });
  const append = kind === 'waf' ? (b) => store.appendWafEvents(b) : (b) => store.appendAccessEntries(b);
  let warmMs = null;
  if (warmSites) {
    const w0 = process.cpuUsage();
    // Builds from 2026-11-26 on unpack packed sites in the background after the open (store.warm); without
    // --warm-sites that unpacking runs inside the window, interleaved with the appends.
    await store.warm;
    for (const site of new Set(src.map((r) => r.site_id))) {
      if (kind === 'waf') await store.searchWafLogs({ site_id: site, page: 1, per_page: 1 });
      else await store.analytics({ site_id: site, period: '24h', now: clock() });
    }
    const w = process.cpuUsage(w0);
    warmMs = +((w.user + w.system) / 1000).toFixed(1);
  }
  const lat = [];
  let next = 0;
  const session = profileDir ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const cpu = cpuWindow();
  const u0 = process.cpuUsage();
  const t0 = nowMs();
  const p0 = performance.now();
  const writer = async () => {
    while (next < batches.length) {
      const b = batches[next++];
      const t = nowMs();
      await append(b);
      lat.push(nowMs() - t);
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
  const t1 = nowMs();
  const p1 = performance.now();
  const secs = (t1 - t0) / 1000;
  const c = cpu();
  const u = process.cpuUsage(u0);
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(profileDir, { recursive: true });
    fs.writeFileSync(path.join(profileDir, `append-${target}-${kind}-w${writers}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
  // Pauses reported after the window closes still belong to it if they started inside it.
  await new Promise((r) => setTimeout(r, 50));
  const gc = gcIn(p0, p1);
  await store.close();
  if (target === 'empty') fs.rmSync(scratch, { recursive: true, force: true });
  else {
    for (const f of fs.readdirSync(dir)) if (!before.has(f)) fs.rmSync(path.join(dir, f), { force: true });
    restoreIndex(dir, indexBackup);
  }
  return { rows_per_s: Math.round(src.length / secs), cpu_us_per_row: +((c.own_cpu_ms * 1000) / src.length).toFixed(2), sys_us_per_row: +(u.system / src.length).toFixed(2), commit_ms: summarize(lat), gc_ms: gc, foreign: c.foreign_cpu_pct_of_box, warm_ms: warmMs };
}

const out = [];
for (const writers of writersList) {
  const runs = dists.map(() => []);
  for (let rep = 1; rep <= reps; rep++) for (let d = 0; d < dists.length; d++) {
    const r = await runOnce(writers, stores[d], commitOpts[d]);
    runs[d].push(r);
    const label = `${path.basename(path.resolve(dists[d], '..'))}${commitOpts[d] ? JSON.stringify(commitOpts[d]) : ''}`;
    log(`${dists.length > 1 ? `[${label}] ` : ''}${target} ${kind} b${batch} w${writers} rep ${rep}: ${r.rows_per_s} rows/s, ${r.cpu_us_per_row} cpu-us/row (sys ${r.sys_us_per_row}), commit p50 ${r.commit_ms.p50.toFixed(2)} p99 ${r.commit_ms.p99.toFixed(2)} ms, gc ${JSON.stringify(r.gc_ms)}, foreign ${r.foreign}%${r.warm_ms === null ? '' : `, warm-up ${r.warm_ms} ms CPU`}`);
  }
  for (let d = 0; d < dists.length; d++) {
    const rs = runs[d];
    out.push({ dist: dists[d], commit: commitOpts[d], target, kind, batch, writers, rows: src.length, rows_per_s_median: median(rs.map((r) => r.rows_per_s)), cpu_us_per_row_median: median(rs.map((r) => r.cpu_us_per_row)), foreign: rs.map((r) => r.foreign), runs: rs });
  }
}
console.log(JSON.stringify(out.map(({ runs, ...s }) => s)));
