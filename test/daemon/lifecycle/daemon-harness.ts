import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonEntry, startDaemonInBackground, stopDaemon, type LaunchResult } from '../../../shared/daemon-launcher.js';

// Real daemons for tests: a fresh temp data dir and port 0 everywhere, so parallel test files never
// collide. Everything started is stopped in cleanup().

export const FREE_PORTS = ['--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0'];

export class DaemonHarness {
  readonly dirs: string[] = [];
  readonly sockets = new Set<string>();
  readonly pids = new Set<number>();

  async tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'wafctl-life-'));
    this.dirs.push(dir);
    return dir;
  }

  async start(dataDir: string, extra: string[] = []): Promise<LaunchResult> {
    const result = await startDaemonInBackground(['--data-dir', dataDir, ...FREE_PORTS, ...extra], { entry: daemonEntry(), env: { ...process.env, WAFCTL_DATA_DIR: '' } });
    if (result.ok) {
      this.sockets.add(result.status.admin_socket);
      this.pids.add(result.status.pid);
    }
    return result;
  }

  async cleanup(): Promise<void> {
    await Promise.all([...this.sockets].map((socket) => stopDaemon(socket, { timeoutMs: 15_000 }).catch(() => undefined)));
    for (const pid of this.pids) {
      if (!processExists(pid)) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const dir of this.dirs) await rm(dir, { recursive: true, force: true });
  }
}

export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function waitUntil(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
