#!/usr/bin/env node
// One run, both stores, same data, same queries, same box: the SQLite anchor
// (anchor/sqlite-bench.mjs) and our event store (store-bench.mjs), phase by phase, then
// report.mjs prints the ratios.
//
//   node bench/events/run.mjs [--rounds 1] [--analytics-n 200] [--insert-rows 100000] [--insert-reps 1]
//                             [--skip query,open,insert] [--jsonl] [--before DIST]
//
// --before DIST: also runs our phases with another build of the store (a tsc outDir, e.g. of
// the commit before a change; see README), results tagged `before-*`, so that report.mjs
// prints before / after figures of the same run.
//
// Needs the anchor installed outside the repository (bench/events/setup-anchor.sh) in
// $EVENTS_ANCHOR_DIR (default /tmp/events-anchor-deps). Data (2.7 GB) goes to $EVENTS_ANCHOR_DATA
// (default <tmpdir>/events-anchor): generated, loaded into SQLite and into our store once, reused after.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { spawnSync } from 'node:child_process';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.join(here, '..', '..');
const anchorDir = process.env.EVENTS_ANCHOR_DIR || '/tmp/events-anchor-deps';
const dataDir = process.env.EVENTS_ANCHOR_DATA || path.join(os.tmpdir(), 'events-anchor');
const resultsDir = process.env.EVENTS_BENCH_RESULTS || path.join(here, 'results');
const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : dflt; };
const skip = new Set(String(opt('skip', '')).split(',').filter(Boolean));
const env = { ...process.env, EVENTS_ANCHOR_DATA: dataDir, EVENTS_ANCHOR_RESULTS: resultsDir, EVENTS_BENCH_RESULTS: resultsDir, EVENTS_ANCHOR_DIR: anchorDir };
const log = (...a) => console.error(new Date().toISOString().slice(11, 19), '[run]', ...a);

function run(cwd, file, args) {
  log(path.basename(file), ...args);
  const r = spawnSync(process.execPath, [file, ...args], { cwd, env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

if (!fs.existsSync(path.join(anchorDir, 'node_modules', 'better-sqlite3'))) {
  console.error(`SQLite anchor not installed in ${anchorDir}: run bench/events/setup-anchor.sh first`);
  process.exit(2);
}
const sqlite = (...args) => run(anchorDir, path.join(anchorDir, 'sqlite-bench.mjs'), args);
const ours = (...args) => run(root, path.join(here, 'store-bench.mjs'), args);
const beforeDist = opt('before', null);
const before = (...args) => {
  if (!beforeDist) return;
  log('before build:', beforeDist);
  const r = spawnSync(process.execPath, [path.join(here, 'store-bench.mjs'), ...args], { cwd: root, env: { ...env, EVENTS_STORE_DIST: path.resolve(beforeDist), EVENTS_BENCH_TAG: 'before' }, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`before build: store-bench ${args.join(' ')} failed (${r.status ?? r.signal})`);
};

log('building the store');
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(here, 'tsconfig.json')], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(1);
fs.mkdirSync(resultsDir, { recursive: true });

if (!fs.existsSync(path.join(dataDir, 'queries.json'))) run(anchorDir, path.join(anchorDir, 'gen.mjs'), []);
if (!fs.existsSync(path.join(dataDir, 'anchor.db'))) sqlite('load');
if (!fs.existsSync(path.join(dataDir, 'ours', 'events', 'index', 'waf.snap'))) ours('load');

ours('disk');
const rounds = opt('rounds', '1');
if (!skip.has('query')) {
  sqlite('query', '--rounds', rounds, '--analytics-rounds', '1', '--analytics-n', opt('analytics-n', '200'));
  ours('query', '--rounds', rounds);
  before('query', '--rounds', rounds);
}
if (!skip.has('open')) {
  sqlite('open', '--reps', '5');
  ours('open', '--reps', '5');
  before('open', '--reps', '5');
}
if (!skip.has('insert')) {
  const rows = opt('insert-rows', '100000');
  const reps = opt('insert-reps', '1');
  sqlite('insert', '--rows', rows, '--reps', reps);
  ours('insert', '--rows', rows, '--reps', reps);
  before('insert', '--rows', rows, '--reps', reps);
}
if (argv.includes('--jsonl')) run(anchorDir, path.join(anchorDir, 'jsonl-baseline.mjs'), ['--reps', opt('insert-reps', '1'), '--scan-reps', '1']);
run(root, path.join(here, 'report.mjs'), ['--write']);
