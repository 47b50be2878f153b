// `daemon start --foreground`: the daemon runs as our child with our stdio, and we pass it the
// signals a service manager sends us, so `systemctl stop` and Ctrl-C drain it gracefully.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** dist/daemon/main.js beside dist/cli/; from sources (tsx) the daemon must be built first. */
export function daemonEntry(): string {
  const here = fileURLToPath(import.meta.url);
  const distRoot = here.includes('/dist/') ? new URL('..', import.meta.url) : new URL('../dist/', import.meta.url);
  return fileURLToPath(new URL('daemon/main.js', distRoot));
}

export function runDaemonInForeground(daemonArgv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [daemonEntry(), ...daemonArgv], { stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const cleanup = () => handlers.forEach(([signal, handler]) => process.off(signal, handler));
    child.once('error', (error) => {
      cleanup();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      cleanup();
      resolve(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1));
    });
  });
}
