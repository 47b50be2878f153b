// New user's tour, minor 10: Ctrl+C on `wafctl daemon start --foreground` is a graceful stop. The
// terminal sends SIGINT to its whole foreground process group; the daemon must get it once (the
// launcher forwards it), not twice, which it takes as "second signal: exit now" (exit 1).
// The CLI as a real process in a process group of its own, SIGINT to the group as a terminal does.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli/cli-process.js';
import { newSandbox, quickStartFlags, stopAll } from './daemon-harness.js';

afterAll(() => stopAll(), 60_000);

/** Field 5 of /proc/PID/stat (after the parenthesised command name, which may hold spaces). */
function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

describe('daemon start --foreground', () => {
  it('stops gracefully with exit 0 on Ctrl+C (SIGINT to the process group)', { timeout: 120_000 }, async () => {
    const d = await newSandbox();
    const child = spawn(process.execPath, [BIN, 'daemon', 'start', '--foreground', ...(await quickStartFlags(d.box))], {
      env: d.box.env, cwd: d.box.home, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Ready when the CLI can reach it over the admin socket.
    const deadline = Date.now() + 60_000;
    while ((await d.wafctl('daemon', 'status')).code !== 0) {
      if (Date.now() > deadline) throw new Error(`the daemon never became ready:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // Two SIGINTs sent at once may merge in the kernel, so the exit code alone cannot show the
    // double delivery: the daemon must be outside the group the terminal signals.
    const daemonPid = Number((await readFile(join(d.box.dataDir, 'wafctl.pid'), 'utf8')).trim());
    expect(processGroupOf(daemonPid)).not.toBe(child.pid);
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited, output).toBe(0);
    expect(output).not.toContain('second signal');
    expect((await d.wafctl('daemon', 'status')).code).toBe(4);
  });
});
