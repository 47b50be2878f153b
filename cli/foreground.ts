// `daemon start --foreground`: the daemon runs as our child with our stdio, and we pass it the
// signals a service manager sends us: SIGTERM and SIGINT drain it gracefully, SIGHUP reloads it.
import { spawn } from 'node:child_process';
import { daemonEntry } from '../shared/daemon-launcher.js';
import { DaemonHeapError, daemonNodeArgs } from '../shared/daemon-node-args.js';
import { CliError } from './cli-error.js';
import type { Env } from './io.js';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function runDaemonInForeground(daemonArgv: string[], env: Env): Promise<number> {
  let nodeArgs: string[];
  try {
    nodeArgs = daemonNodeArgs(env);
  } catch (error) {
    if (error instanceof DaemonHeapError) return Promise.reject(new CliError('daemon_start_failed', error.message));
    throw error;
  }
  return new Promise((resolve, reject) => {
    // detached: the daemon gets a process group of its own, so Ctrl+C (SIGINT to the terminal's
    // foreground group) reaches it once, through us, and not twice (directly, then forwarded),
    // which it would take as "stop now" (exit 1) instead of a graceful stop.
    const child = spawn(process.execPath, [...nodeArgs, daemonEntry(), ...daemonArgv], { stdio: 'inherit', env: { ...env }, detached: true });
    const handlers = FORWARDED.map((signal) => [signal, () => child.kill(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const cleanup = () => handlers.forEach(([signal, handler]) => process.off(signal, handler));
    child.once('error', (error) => {
      cleanup();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      cleanup();
      // Killed by a signal we forwarded: the daemon stopped as asked.
      resolve(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1));
    });
  });
}
