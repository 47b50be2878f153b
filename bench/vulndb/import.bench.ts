// Import time and peak RSS for a large synthetic feed (default 160 MB, ~45,000 records, the
// size of the real feed in 2026), each run in a fresh process so RSS figures are its own.
// Anchor: the whole-document approach, `JSON.parse(readFileSync(feed))`, which only parses
// (no validation, no index, nothing written). Ratios are ours / anchor.
//
//   npx tsx bench/vulndb/import.bench.ts [--mb 160] [--runs 1]
//
// Peak RSS is the kernel's high-water mark (process.resourceUsage().maxRSS) minus the RSS
// just before the work starts. `ours, warm process` first imports a 20 MB feed in the same
// process, as a running daemon would have a grown heap; its figure is an upper bound.

import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VulnDb } from '../../daemon/vulndb/vulndb.js';
import { writeSyntheticFeed } from './synthetic-feed.js';

interface RunResult {
  ms: number;
  peak_rss_delta_mb: number;
  records: number;
}

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

async function child(mode: string, feed: string, dbDir: string): Promise<void> {
  if (mode === 'ours-warm') {
    // A running daemon has a grown heap already: import a 20 MB feed first, then measure.
    const warmFeed = join(dbDir + '-warm.json');
    await writeSyntheticFeed(warmFeed, { targetBytes: 20e6, seed: 2 });
    const db = await VulnDb.open(dbDir);
    await db.import(warmFeed);
    db.close();
    await rm(warmFeed);
  }
  const before = process.memoryUsage().rss;
  const started = performance.now();
  let records: number;
  if (mode === 'ours' || mode === 'ours-warm') {
    const db = await VulnDb.open(dbDir);
    const { status } = await db.import(feed);
    records = status.loaded ? status.records : 0;
    db.close();
  } else {
    records = Object.keys(JSON.parse(readFileSync(feed, 'utf8')) as object).length;
  }
  const ms = performance.now() - started;
  const peak = process.resourceUsage().maxRSS * 1024;
  const result: RunResult = { ms, peak_rss_delta_mb: (peak - before) / 1e6, records };
  process.stdout.write(JSON.stringify(result));
}

function run(mode: string, feed: string, dbDir: string): RunResult {
  const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', mode, '--feed', feed, '--db', dbDir], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`${mode} run failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as RunResult;
}

const childMode = arg('child');
if (childMode !== undefined) {
  await child(childMode, arg('feed')!, arg('db')!);
} else {
  const mb = Number(arg('mb') ?? 160);
  const runs = Number(arg('runs') ?? 1);
  const dir = await mkdtemp(join(tmpdir(), 'wafctl-vulndb-import-bench-'));
  try {
    const feed = join(dir, 'feed.json');
    const info = await writeSyntheticFeed(feed, { targetBytes: mb * 1e6, seed: 1 });
    const fileMb = info.bytes / 1e6;
    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} CPUs`);
    console.log(`feed: ${fileMb.toFixed(1)} MB, ${info.records} records`);
    const ours: RunResult[] = [];
    const warm: RunResult[] = [];
    const anchor: RunResult[] = [];
    for (let i = 0; i < runs; i++) {
      await rm(join(dir, 'db'), { recursive: true, force: true });
      ours.push(run('ours', feed, join(dir, 'db')));
      await rm(join(dir, 'db'), { recursive: true, force: true });
      warm.push(run('ours-warm', feed, join(dir, 'db')));
      anchor.push(run('anchor', feed, join(dir, 'db')));
    }
    const best = (rs: RunResult[]) => rs.reduce((a, b) => (b.ms < a.ms ? b : a));
    const o = best(ours);
    const a = best(anchor);
    const line = (name: string, r: RunResult) =>
      `${name.padEnd(22)} ${(r.ms / 1000).toFixed(2)} s  ${(fileMb / (r.ms / 1000)).toFixed(1)} MB/s  peak RSS +${r.peak_rss_delta_mb.toFixed(0)} MB ` +
      `(${(r.peak_rss_delta_mb / fileMb).toFixed(2)}x the file)  records ${r.records}`;
    console.log(line('ours (stream+index)', o));
    // Upper bound: maxRSS is the process's high-water mark, warm-up included.
    console.log(line('ours, warm process', best(warm)));
    console.log(line('anchor (JSON.parse)', a));
    console.log(`ratio ours/anchor: time ${(o.ms / a.ms).toFixed(2)}, peak RSS ${(o.peak_rss_delta_mb / a.peak_rss_delta_mb).toFixed(2)}`);
    const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
    await mkdir(resultsDir, { recursive: true });
    await writeFile(
      join(resultsDir, `import-${mb}mb.json`),
      JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, load_average: loadavg(), file_mb: fileMb, records: info.records, ours, warm, anchor }, null, 1) + '\n',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
