// contrib/systemd/wafctl.service passes `systemd-analyze verify` without a warning (an unknown or
// misspelt key is only a warning there, so the test reads stderr, not just the exit code). The
// unit's ExecStart names the install path /opt/wafctl; here it points at this checkout's CLI.
// Skipped, saying so, where systemd-analyze is not installed.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
const UNIT_FILE = new URL('../../contrib/systemd/wafctl.service', import.meta.url);
const CHECKOUT_CLI = fileURLToPath(new URL('../../bin/wafctl.js', import.meta.url));

describe('contrib/systemd/wafctl.service', () => {
  it.skipIf(!ANALYZE)('(needs systemd-analyze) passes systemd-analyze verify with no warning', { timeout: 60_000 }, async () => {
    const text = await readFile(UNIT_FILE, 'utf8');
    expect(text).toContain('ExecStart=/opt/wafctl/bin/wafctl.js ');
    const dir = await mkdtemp(join(tmpdir(), 'wafctl-systemd-'));
    const unit = join(dir, 'wafctl.service');
    await writeFile(unit, text.replace('ExecStart=/opt/wafctl/bin/wafctl.js ', `ExecStart=${CHECKOUT_CLI} `));
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(ANALYZE!, ['verify', '--man=no', unit], (error, _stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr });
      });
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
