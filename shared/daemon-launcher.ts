import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AdminClient } from './admin-client.js';
import { crashReason } from './daemon-crash-reason.js';
import { daemonNodeArgs } from './daemon-node-args.js';
import { WafctlError } from './errors.js';
import type { DaemonStatus } from './schemas/admin.js';

// How the CLI starts, stops and asks after the daemon.
// Background start: spawn `node dist/daemon/main.js ...argv` detached with an IPC channel; the daemon
// sends {type:'ready', status} once every listener is up, or {type:'error', message} (one line), then
// closes the channel. We unref everything so the CLI can exit while the daemon runs on.

export type LaunchResult = { ok: true; status: DaemonStatus } | { ok: false; reason: string };

export interface LaunchOptions {
  /** The daemon entry; default dist/daemon/main.js of this package. */
  entry?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** How long to wait for `ready` (first start generates TLS keys). Default 30 s. */
  timeoutMs?: number;
}

type ReadinessMessage = { type: 'ready'; status: DaemonStatus } | { type: 'error'; message: string };

export function daemonEntry(): string {
  const sibling = fileURLToPath(new URL('../daemon/main.js', import.meta.url));
  if (existsSync(sibling)) return sibling; // running from dist/
  return fileURLToPath(new URL('../dist/daemon/main.js', import.meta.url)); // running from source
}

export function startDaemonInBackground(argv: readonly string[], opts: LaunchOptions = {}): Promise<LaunchResult> {
  const entry = opts.entry ?? daemonEntry();
  if (!existsSync(entry)) return Promise.resolve({ ok: false, reason: `the daemon is not built (${entry} is missing): run \`npm run build\`` });
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const env = opts.env ?? process.env;
  let nodeArgs: string[];
  try {
    nodeArgs = daemonNodeArgs(env);
  } catch (error) {
    return Promise.resolve({ ok: false, reason: (error as Error).message });
  }
  const child = spawn(process.execPath, [...nodeArgs, entry, ...argv], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env,
    cwd: opts.cwd,
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    if (stderr.length < 8192) stderr += text;
  });

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: LaunchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stderr!.destroy();
      if (child.connected) child.disconnect();
      child.unref();
      resolve(result);
    };
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      finish({ ok: false, reason: `the daemon did not report ready within ${Math.round(timeoutMs / 1000)} s; see daemon.log in its data dir` });
    }, timeoutMs);
    child.on('message', (message: ReadinessMessage) => {
      if (message?.type === 'ready') finish({ ok: true, status: message.status });
      else if (message?.type === 'error') finish({ ok: false, reason: message.message });
    });
    child.on('error', (error) => finish({ ok: false, reason: `cannot start the daemon: ${error.message}` }));
    // 'close', not 'exit': node may report the exit before it has read the last message on the IPC
    // channel (seen under load: a daemon that said why it could not start was reported as having
    // exited before it was ready). 'close' comes once stderr and the channel are both drained.
    child.on('close', (code, signal) => {
      finish({ ok: false, reason: crashReason(stderr) ?? `the daemon exited (${signal ?? `code ${code}`}) before it was ready` });
    });
  });
}

export async function readDaemonStatus(socketPath: string): Promise<DaemonStatus> {
  const client = new AdminClient(socketPath, { timeoutMs: 10_000 });
  try {
    return await client.status();
  } finally {
    await client.close();
  }
}

export type StopResult = { ok: true; pid: number } | { ok: false; code: 'daemon_unreachable' | 'internal_error'; reason: string };

/** Graceful stop over the admin socket; resolves once the daemon process is gone. */
export async function stopDaemon(socketPath: string, opts: { timeoutMs?: number } = {}): Promise<StopResult> {
  const client = new AdminClient(socketPath, { timeoutMs: 10_000 });
  let pid: number;
  try {
    pid = (await client.status()).pid;
    await client.shutdown();
  } catch (error) {
    const code = error instanceof WafctlError && error.code === 'daemon_unreachable' ? 'daemon_unreachable' : 'internal_error';
    return { ok: false, code, reason: (error as Error).message };
  } finally {
    await client.close();
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (!processExists(pid)) return { ok: true, pid };
    await new Promise((r) => setTimeout(r, 50));
  }
  return { ok: false, code: 'internal_error', reason: `the daemon (pid ${pid}) is still stopping after ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s` };
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
