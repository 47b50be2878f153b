// Disk full, for real: small tmpfs mounts (mount needs root or CAP_SYS_ADMIN; CI runs as root) filled
// to the brim with a ballast file, under a real daemon process.
// 1. The event segments' disk fills during ingestion: every request is answered 500 in the ingestion
//    error shape (never an ack for what is not on disk), the daemon stays up, it acknowledges again
//    once space returns, and after a restart every acknowledged entry is there once, none torn.
// 2. The whole data dir's disk fills (config.json, the daemon log and the events together): a config
//    write changes nothing and the daemon keeps answering (the daemon log drops lines it cannot write).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../shared/admin-client.js';
import { IngestErrorSchema } from '../../shared/schemas/ingest.js';
import { apiCall, daemonFlags, startDaemon, type DaemonProcess } from './support/daemon-process.js';

const SITE = 'full.example.test';
const mounted: string[] = [];

function mountTmpfs(dir: string, size: string): string | null {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    mounted.push(dir);
    return null;
  } catch (error) {
    return (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
  }
}

function fill(dir: string, leaveBytes: number): string {
  const s = statfsSync(dir);
  const file = join(dir, `ballast-${mounted.length}-${Date.now()}`);
  writeFileSync(file, Buffer.alloc(Math.max(0, s.bavail * s.bsize - leaveBytes)));
  return file;
}

const eventsHome = mkdtempSync(join(tmpdir(), 'wafctl-full-'));
const eventsMount = join(eventsHome, 'data', 'events');
const wholeHome = mkdtempSync(join(tmpdir(), 'wafctl-full-'));
const wholeMount = join(wholeHome, 'data');
// Skipped only where the sandbox cannot mount a tmpfs (not root, no CAP_SYS_ADMIN): the reason is printed.
const mountProblem = mountTmpfs(eventsMount, '2m') ?? mountTmpfs(wholeMount, '3m');
if (mountProblem !== null) console.log(`[reliability] disk-full tests skipped: cannot mount a tmpfs here (${mountProblem})`);

const flags = (home: string) => daemonFlags(home, ['--ingest-rate-limit', '1000000']);
const agent = new Agent({ keepAlive: false });
const figures = { answersWhileFull: {} as Record<string, number>, acknowledged: 0, lost: 0, storedUnacknowledged: 0, torn: 0 };
/** Every daemon a test started, stopped in afterAll whatever happened to the test. */
const running = new Set<DaemonProcess>();

/** A daemon on one of the mounts, with the site and an ingestion token, and what it acknowledged. */
interface Ingesting { d: DaemonProcess; token: string; acknowledged: string[] }

async function launch(home: string): Promise<DaemonProcess> {
  const daemon = await startDaemon(flags(home));
  running.add(daemon);
  return daemon;
}

async function stop(daemon: DaemonProcess): Promise<void> {
  await daemon.stop();
  running.delete(daemon);
}

async function setUp(home: string): Promise<Ingesting> {
  const daemon = await launch(home);
  const admin = new AdminClient(daemon.status.admin_socket);
  await admin.addSite({ domain: SITE, origin: 'http://127.0.0.1:9' });
  await admin.setApiAccess(true);
  const { token } = await admin.createToken('full');
  await admin.close();
  return { d: daemon, token, acknowledged: [] };
}

async function post(to: Ingesting, tag: string, n = 50) {
  const entries = Array.from({ length: n }, (_, i) => ({
    timestamp: Math.floor(Date.now() / 1000), host: SITE, client_ip: '203.0.113.5', uri: `/${tag}/${i}/${'p'.repeat(200)}`, method: 'GET', status: 200, bytes_sent: 512,
  }));
  const res = await apiCall(to.d, agent, 'POST', '/api/vector/access', { authorization: `Bearer ${to.token}` }, entries);
  if (res.status === 200) to.acknowledged.push(...entries.map((e) => e.uri));
  return res;
}

afterAll(async () => {
  console.log(`[reliability] disk full: ${JSON.stringify(figures)}`);
  for (const daemon of running) await daemon.stop().catch(() => undefined);
  for (const dir of mounted.reverse()) execFileSync('umount', ['-l', dir]);
  rmSync(eventsHome, { recursive: true, force: true });
  rmSync(wholeHome, { recursive: true, force: true });
}, 60_000);

describe.skipIf(mountProblem !== null)('the event store\'s disk fills during ingestion', () => {
  // One story in steps: what the restart must find is what the filling acknowledged.
  it('answers 500 in the documented shape while full, stays up, and acknowledges again when space returns; after a restart every acknowledged entry is there once, nothing refused was kept, no line is torn', async () => {
    const run = await setUp(eventsHome);

    // 1. The disk fills during ingestion: refused in the documented shape, then acknowledged again.
    expect((await post(run, 'before')).status).toBe(200);
    const ballast = fill(eventsMount, 64 * 1024); // a few batches fit, then the disk is full
    let refused = 0;
    for (let i = 0; i < 40 && refused < 8; i++) {
      const res = await post(run, `fill${i}`);
      figures.answersWhileFull[res.status] = (figures.answersWhileFull[res.status] ?? 0) + 1;
      if (res.status === 200) continue;
      refused++;
      expect(res.status, JSON.stringify(res.json)).toBe(500);
      expect(IngestErrorSchema.strict().safeParse(res.json).success, JSON.stringify(res.json)).toBe(true);
    }
    expect(refused, 'the disk filled up and ingestion said so').toBe(8);
    await rm(ballast);
    expect((await post(run, 'after')).status).toBe(200);
    expect((await post(run, 'after2')).status).toBe(200);

    // 2. After a restart every acknowledged entry is there once, nothing refused was kept, no line is torn.
    await stop(run.d);
    const again = await launch(eventsHome);
    const stored = new Map<string, number>();
    for (const file of (await readdir(eventsMount)).filter((f) => f.startsWith('access-') && f.endsWith('.jsonl'))) {
      for (const line of (await readFile(join(eventsMount, file), 'utf8')).split('\n')) {
        if (line === '') continue;
        try {
          const uri = (JSON.parse(line) as { uri: string }).uri;
          stored.set(uri, (stored.get(uri) ?? 0) + 1);
        } catch {
          figures.torn++;
        }
      }
    }
    const { acknowledged } = run;
    figures.acknowledged = acknowledged.length;
    figures.lost = acknowledged.filter((uri) => stored.get(uri) !== 1).length;
    figures.storedUnacknowledged = stored.size - acknowledged.filter((uri) => stored.has(uri)).length;
    expect(figures.torn).toBe(0);
    expect(figures.lost).toBe(0);
    expect(figures.storedUnacknowledged).toBe(0);
    await stop(again);
  }, 240_000);
});

describe.skipIf(mountProblem !== null)('the whole data dir\'s disk fills (config, log and events together)', () => {
  let whole: Ingesting;
  beforeAll(async () => {
    whole = await setUp(wholeHome);
  }, 120_000);

  // Found by this test: the daemon log (pino.destination sync, no 'error' listener) threw inside every
  // request once the disk was full: fastify's fallback `{"statusCode":500,"code":"ENOSPC"}`, then
  // connection resets. Fixed in daemon/lifecycle/daemon-log.ts (lines dropped and counted).
  it('a config write on the full disk fails with disk_full, changes nothing, and the daemon keeps answering', async () => {
    const configBefore = await readFile(join(wholeMount, 'config.json'), 'utf8');
    const ballast = fill(wholeMount, 512); // not even room for config.json's temp file
    const admin = new AdminClient(whole.d.status.admin_socket);
    try {
      await expect(admin.addSite({ domain: 'never.example.test', origin: 'http://127.0.0.1:9' })).rejects.toMatchObject({ code: 'disk_full' });
      expect(await readFile(join(wholeMount, 'config.json'), 'utf8')).toBe(configBefore);
      for (let i = 0; i < 5; i++) expect((await post(whole, `whole${i}`)).status).toBe(500);
      expect((await admin.status()).pid).toBe(whole.d.status.pid);
      await rm(ballast);
      await admin.addSite({ domain: 'later.example.test', origin: 'http://127.0.0.1:9' });
    } finally {
      await rm(ballast, { force: true });
      await admin.close();
    }
  }, 60_000);
});
