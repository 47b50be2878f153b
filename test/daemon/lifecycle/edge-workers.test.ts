import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../../shared/admin-client.js';
import { stopDaemon } from '../../../shared/daemon-launcher.js';
import { DaemonHarness, processExists, waitUntil } from './daemon-harness.js';

// --workers 2: the edge runs in two node:cluster workers of the daemon, sharing the edge ports;
// config changes reach every worker; stopping the daemon stops them.

const harness = new DaemonHarness();
afterAll(() => harness.cleanup());

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function get(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('edge workers', { timeout: 90_000 }, () => {
  it('serves through two workers, applies changes in every worker, and stops them with the daemon', async () => {
    const dir = await harness.tempDir();
    const started = await harness.start(dir, ['--workers', '2', '--demo']);
    if (!started.ok) throw new Error(started.reason);
    const { status } = started;
    expect(status.workers).toBe(2);
    const workers = childrenOf(status.pid);
    expect(workers).toHaveLength(2);
    for (const pid of workers) expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain('edge-worker-main');

    // Connections are dealt round-robin: ten fresh connections reach both workers.
    const edge = status.ports.edge;
    for (let i = 0; i < 10; i++) expect(await get(edge, 'demo.localhost')).toBe(200);

    const admin = new AdminClient(status.admin_socket);
    // The snapshot travels to the workers over IPC: wait until both have it, then every request agrees.
    const settle = async (expected: number) => {
      let streak = 0;
      const deadline = Date.now() + 10_000;
      while (streak < 4 && Date.now() < deadline) streak = (await get(edge, 'second.test')) === expected ? streak + 1 : 0;
      for (let i = 0; i < 10; i++) expect(await get(edge, 'second.test')).toBe(expected);
    };
    await admin.addSite({ domain: 'second.test', origin: status.demo!.origin });
    await settle(200);
    await admin.disableSite('second.test');
    await settle(503);
    await admin.close();

    // A worker that dies is replaced; the edge keeps answering meanwhile.
    process.kill(workers[0], 'SIGKILL');
    await waitUntil(() => {
      const now = childrenOf(status.pid);
      return now.length === 2 && !now.includes(workers[0]);
    });
    for (let i = 0; i < 6; i++) expect(await get(edge, 'demo.localhost')).toBe(200);
    const current = childrenOf(status.pid);

    // The replacement may still be compiling its rule sets: the stop does not wait for it.
    const stopped = await stopDaemon(status.admin_socket);
    expect(stopped, JSON.stringify(stopped)).toMatchObject({ ok: true });
    await waitUntil(() => current.every((pid) => !processExists(pid)));
  });
});
