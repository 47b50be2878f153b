// A real daemon process (dist/daemon/main.js, started the way `wafctl daemon start` does it) on a
// data dir that outlives it, so a test can SIGKILL it at any moment and start it again on the same
// files. Small and quick: free ports, one worker, an empty CRS dir unless a test gives one.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:https';
import { startDaemonInBackground } from '../../../shared/daemon-launcher.js';
import type { DaemonStatus } from '../../../shared/schemas/admin.js';

export interface DaemonProcess {
  status: DaemonStatus;
  ca: string;
  /** SIGKILL, then wait until the process is gone (its pid lock is then stale, as after a crash). */
  kill(): Promise<void>;
  /** SIGTERM and wait: the clean stop. */
  stop(): Promise<void>;
}

export function daemonFlags(home: string, extra: string[] = []): string[] {
  const crs = join(home, 'no-crs');
  mkdirSync(join(crs, 'rules'), { recursive: true });
  return ['--data-dir', join(home, 'data'), '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '1', '--crs-dir', crs, ...extra];
}

export async function startDaemon(argv: string[], env: NodeJS.ProcessEnv = { PATH: process.env.PATH }): Promise<DaemonProcess> {
  const started = await startDaemonInBackground(argv, { env, timeoutMs: 60_000 });
  if (!started.ok) throw new Error(`the daemon did not start: ${started.reason}`);
  const { status } = started;
  return {
    status,
    ca: readFileSync(status.ca_file!, 'utf8'),
    kill: () => signalAndWait(status.pid, 'SIGKILL'),
    stop: () => signalAndWait(status.pid, 'SIGTERM'),
  };
}

/** Tries to start a daemon and returns its one-line failure reason instead of throwing. */
export async function startFailure(argv: string[]): Promise<string | null> {
  const started = await startDaemonInBackground(argv, { env: { PATH: process.env.PATH }, timeoutMs: 60_000 });
  if (started.ok) {
    await signalAndWait(started.status.pid, 'SIGTERM');
    return null;
  }
  return started.reason;
}

export async function signalAndWait(pid: number, signal: NodeJS.Signals, timeoutMs = 30_000): Promise<void> {
  try {
    process.kill(pid, signal);
  } catch {
    return; // already gone
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`pid ${pid} still alive ${timeoutMs} ms after ${signal}`);
}

export interface JsonAnswer {
  status: number;
  json: any;
}

/** One HTTPS request to the daemon's API; rejects when the connection fails (a killed daemon). */
export function apiCall(d: DaemonProcess, agent: Agent, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<JsonAnswer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, d.status.api_url), {
      method, agent, ca: d.ca, servername: 'localhost',
      headers: { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }) },
    }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode!, json: data === '' ? undefined : JSON.parse(data) });
        } catch (error) {
          reject(error as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.end(text);
  });
}
