// Real daemons for end-to-end tests, started and stopped through the wafctl binary, each in its own
// temporary data dir on free ports (port 0: the daemon picks and reports them). Whatever a test
// leaves running is stopped in afterAll, by `wafctl daemon stop` and, failing that, by its pid file.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWafctl, sandbox, type CliResult, type CliSandbox } from '../cli/cli-process.js';

export interface E2eDaemon {
  box: CliSandbox;
  /** Runs wafctl with this sandbox's environment and data dir. */
  wafctl(...args: string[]): Promise<CliResult>;
}

const started: CliSandbox[] = [];

/** Flags that keep a test daemon small and quick: free ports, one worker, an empty CRS dir. */
export async function quickStartFlags(box: CliSandbox): Promise<string[]> {
  const crs = join(box.home, 'crs');
  await mkdir(join(crs, 'rules'), { recursive: true });
  return ['--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '1', '--crs-dir', crs];
}

export async function newSandbox(): Promise<E2eDaemon> {
  const box = sandbox();
  started.push(box);
  return { box, wafctl: (...args: string[]) => runWafctl(args, box.env, { timeoutMs: 45_000 }) };
}

export async function stopAll(): Promise<void> {
  for (const box of started.splice(0)) {
    const stop = await runWafctl(['daemon', 'stop'], box.env, { timeoutMs: 30_000 }).catch(() => undefined);
    if (stop?.code === 0 || stop?.code === 4) continue;
    try {
      process.kill(Number(readFileSync(join(box.dataDir, 'wafctl.pid'), 'utf8').trim()), 'SIGKILL');
    } catch {
      // nothing left to stop
    }
  }
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}
