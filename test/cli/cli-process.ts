// Runs the built CLI (bin/wafctl.js -> dist/cli/main.js) as a real process, with its own HOME,
// XDG_CONFIG_HOME and nothing inherited that could point it at a real daemon or profile.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..');
export const BIN = join(REPO, 'bin', 'wafctl.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliSandbox {
  home: string;
  configHome: string;
  dataDir: string;
  env: Record<string, string>;
}

export function sandbox(): CliSandbox {
  const home = mkdtempSync(join(tmpdir(), 'wafctl-proc-'));
  const configHome = join(home, 'config');
  const dataDir = join(home, 'data');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: configHome,
    XDG_DATA_HOME: join(home, 'xdg-data'),
    WAFCTL_DATA_DIR: dataDir,
  };
  return { home, configHome, dataDir, env };
}

export function runWafctl(args: string[], env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: env.HOME, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`wafctl ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
