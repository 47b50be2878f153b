// `wafctl daemon start --foreground` as systemd runs it (contrib/systemd/wafctl.service): the CLI
// is the main process, and with KillMode=mixed only it gets SIGTERM (stop) and SIGHUP (ExecReload).
// It must pass each on to the daemon once: SIGHUP reloads, SIGTERM drains and exits 0.
// The CLI as a real process, signalled by its pid alone as systemd does.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli/cli-process.js';
import { newSandbox, quickStartFlags, stopAll } from './daemon-harness.js';

afterAll(() => stopAll(), 60_000);

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 240; tries++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`never happened: ${what}`);
}

describe('daemon start --foreground under a service manager', () => {
  it('reloads on SIGHUP and stops gracefully with exit 0 on SIGTERM, both sent to the CLI only', { timeout: 120_000 }, async () => {
    const d = await newSandbox();
    const child = spawn(process.execPath, [BIN, 'daemon', 'start', '--foreground', ...(await quickStartFlags(d.box))], {
      env: d.box.env, cwd: d.box.home, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await until(async () => output.includes('wafctl daemon ready'), `the ready line:\n${output}`);
    const log = () => readFile(join(d.box.dataDir, 'daemon.log'), 'utf8');

    process.kill(child.pid!, 'SIGHUP');
    await until(async () => (await log()).includes('"msg":"configuration reloaded"'), 'a reload in daemon.log');
    expect((await d.wafctl('daemon', 'status')).code).toBe(0);

    process.kill(child.pid!, 'SIGTERM');
    expect(await closed, output).toBe(0);
    const lines = await log();
    expect(lines).toContain('"reason":"SIGTERM","msg":"stopping"');
    expect(lines).toContain('"msg":"stopped"');
    expect(lines).not.toContain('second signal');
  });
});
