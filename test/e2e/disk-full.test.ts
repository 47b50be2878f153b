// New user's tour, minor 8: a full disk is its own error, not "internal error". A real daemon with
// its data dir on a small tmpfs, filled up under it; the CLI as a real process.
// Mounting a tmpfs needs root: without it the test is skipped, and says so.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll } from './daemon-harness.js';

const isRoot = process.getuid?.() === 0;
const mounts: string[] = [];

afterAll(async () => {
  await stopAll();
  for (const dir of mounts) execFileSync('umount', [dir]);
}, 60_000);

describe('a full disk', () => {
  it.skipIf(!isRoot)('(needs root to mount a tmpfs) site set answers disk_full with a hint, exit 1, and changes nothing; daemon status shows the failing event writes', { timeout: 120_000 }, async () => {
    const d = await newSandbox();
    await mkdir(d.box.dataDir, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', d.box.dataDir]);
    mounts.push(d.box.dataDir);
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code, start.stderr).toBe(0);
    expect((await d.wafctl('site', 'add', 'full.test', '--origin', 'http://127.0.0.1:9')).code).toBe(0);
    const before = await readFile(join(d.box.dataDir, 'config.json'), 'utf8');

    // Fill what is left: a file written until the filesystem refuses more.
    const filler = join(d.box.dataDir, 'filler');
    try {
      await writeFile(filler, Buffer.alloc(8 * 1024 * 1024));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    const full = await d.wafctl('site', 'set', 'full.test', '--mode', 'detect');
    expect(full.code).toBe(1);
    expect(full.stderr).toBe(
      "error: disk_full: The daemon's disk is full (ENOSPC): nothing was changed; the daemon log names the file.\n" +
        "hint: free space on the data dir's filesystem (`wafctl daemon status` shows the data dir), then run the command again\n",
    );
    expect(await readFile(join(d.box.dataDir, 'config.json'), 'utf8')).toBe(before);
    expect(await readFile(join(d.box.dataDir, 'daemon.log'), 'utf8')).toMatch(/disk full \(ENOSPC\) writing /);

    // The edge goes on answering; its access entries cannot be written, and daemon status says so.
    const edge = (JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number } }).ports.edge;
    const eventWrites = async () => (JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { write_failures: { events: { error: string } | null } }).write_failures.events;
    const served = () => new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: edge, path: '/', headers: { host: 'full.test', connection: 'close' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      }).on('error', reject).end();
    });
    let failing = null;
    for (let tries = 0; failing === null && tries < 50; tries++) {
      expect(await served()).toBe(502); // the origin (port 9) is down: the answer still goes out
      failing = await eventWrites();
    }
    expect(failing).toMatchObject({ error: 'ENOSPC (disk full)', path: join(d.box.dataDir, 'events') });
    expect((await d.wafctl('daemon', 'status')).stderr).toContain('warning: event writes are failing (ENOSPC (disk full)');

    await rm(filler);
    const freed = await d.wafctl('site', 'set', 'full.test', '--mode', 'detect');
    expect(freed.code, freed.stderr).toBe(0);
    for (let tries = 0; failing !== null && tries < 50; tries++) {
      await served();
      failing = await eventWrites();
    }
    expect(failing).toBeNull();
  });
});
