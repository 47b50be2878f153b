// `wafctl vulndb import FILE` end to end: the CLI streams the feed over the admin socket into a
// running daemon. Anchor: the same daemon importing the same file by path (POST /admin/vulndb/import
// {source}), i.e. no upload at all. Prints wall times, the ratio, the daemon's own import time and
// the CLI's peak RSS (against `wafctl vulndb status`, which only loads the CLI).
//
//   npm run build && npx tsx bench/vulndb/cli-import.bench.ts [--mb 160] [--rounds 2]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'undici';
import { writeSyntheticFeed } from './synthetic-feed.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MB = arg('mb', 160);
const ROUNDS = arg('rounds', 2);
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'wafctl.js');
const TIME = '/usr/bin/time';

const home = await mkdtemp(join(tmpdir(), 'wafctl-bench-cli-import-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'cfg'), WAFCTL_DATA_DIR: join(home, 'data') };

function wafctl(args: string[]): { code: number; stdout: string; stderr: string; ms: number; maxRssKb: number | null } {
  const timed = existsSync(TIME);
  const argv = timed ? ['-f', '%M', process.execPath, BIN, ...args] : [BIN, ...args];
  const started = performance.now();
  const r = spawnSync(timed ? TIME : process.execPath, argv, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  let stderr = r.stderr;
  let maxRssKb: number | null = null;
  if (timed) {
    const lines = stderr.trimEnd().split('\n');
    maxRssKb = Number(lines.pop());
    stderr = lines.join('\n');
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr, ms, maxRssKb };
}

async function importByPath(client: Client, path: string): Promise<{ ms: number; daemonMs: number }> {
  const started = performance.now();
  const res = await client.request({ method: 'POST', path: '/admin/vulndb/import', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ source: path }), headersTimeout: 0, bodyTimeout: 0 });
  const body = (await res.body.json()) as { success: boolean; data: { status: { duration_ms: number } } };
  if (!body.success) throw new Error(`anchor import failed: ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, daemonMs: body.data.status.duration_ms };
}

/** CPU seconds (user + system) the daemon has used so far, from /proc. */
function daemonCpuS(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const feed = join(home, 'feed.json');
  const info = await writeSyntheticFeed(feed, { targetBytes: MB * 1e6, seed: 1 });
  console.log(`feed: ${(info.bytes / 1e6).toFixed(1)} MB, ${info.records} records`);
  await mkdir(join(home, 'crs', 'rules'), { recursive: true });
  const start = wafctl(['daemon', 'start', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '1', '--crs-dir', join(home, 'crs')]);
  if (start.code !== 0) throw new Error(`daemon start failed: ${start.stderr}`);
  const client = new Client('http://localhost', { socketPath: join(env.WAFCTL_DATA_DIR, 'wafctl.sock') });
  const baseline = wafctl(['vulndb', 'status']);

  const pid = Number(readFileSync(join(env.WAFCTL_DATA_DIR, 'wafctl.pid'), 'utf8').trim());
  const anchor: number[] = [];
  const cli: number[] = [];
  const anchorCpu: number[] = [];
  const cliCpu: number[] = [];
  const daemonOwn: number[] = [];
  const cliRss: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let cpu = daemonCpuS(pid);
    anchor.push((await importByPath(client, feed)).ms);
    anchorCpu.push(daemonCpuS(pid) - cpu);
    cpu = daemonCpuS(pid);
    const r = wafctl(['--json', 'vulndb', 'import', feed]);
    if (r.code !== 0) throw new Error(`wafctl vulndb import failed: ${r.stderr}`);
    cliCpu.push(daemonCpuS(pid) - cpu);
    cli.push(r.ms);
    daemonOwn.push((JSON.parse(r.stdout) as { status: { duration_ms: number } }).status.duration_ms);
    if (r.maxRssKb !== null) cliRss.push(r.maxRssKb);
  }
  const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  await client.close();

  const a = median(anchor);
  const c = median(cli);
  console.log(`anchor (daemon reads the file by path): median ${(a / 1000).toFixed(2)} s over ${ROUNDS}`);
  console.log(`wafctl vulndb import FILE (streamed upload): median ${(c / 1000).toFixed(2)} s (daemon-reported import ${(median(daemonOwn) / 1000).toFixed(2)} s)`);
  console.log(`daemon CPU per import: ${median(anchorCpu).toFixed(2)} s by path, ${median(cliCpu).toFixed(2)} s streamed (ratio ${(median(cliCpu) / median(anchorCpu)).toFixed(2)})`);
  console.log(`ratio wafctl/anchor: ${(c / a).toFixed(2)}  (includes ~${(baseline.ms / 1000).toFixed(2)} s CLI start, measured by vulndb status)`);
  if (cliRss.length > 0 && baseline.maxRssKb !== null) {
    console.log(`CLI peak RSS: ${(Math.max(...cliRss) / 1024).toFixed(0)} MB vs ${(baseline.maxRssKb / 1024).toFixed(0)} MB for vulndb status (+${((Math.max(...cliRss) - baseline.maxRssKb) / 1024).toFixed(0)} MB for a ${(info.bytes / 1e6).toFixed(0)} MB feed)`);
  }
  if (hwm) console.log(`daemon peak RSS after all imports: ${(Number(hwm) / 1024).toFixed(0)} MB`);
} finally {
  const stop = spawn(process.execPath, [BIN, 'daemon', 'stop'], { env, stdio: 'ignore' });
  await new Promise((r) => stop.once('close', r));
  await rm(home, { recursive: true, force: true });
}
