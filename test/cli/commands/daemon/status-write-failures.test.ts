// `wafctl daemon status` with failing background writes: a field per failing kind and a warning on
// stderr; nothing of it when writes work or an older daemon does not report them.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../cli/run.js';
import { DaemonStatusSchema } from '../../../../shared/schemas/admin.js';
import { harness, STATUS } from '../../fakes.js';

const FULL = { failing_since: '2026-11-27T12:00:00.000Z', error: 'ENOSPC (disk full)', path: '/data/events', failed_writes: 1234 };

describe('daemon status: failing writes', () => {
  it('shows each failing kind as a field and warns on stderr, exit 0', async () => {
    const h = harness();
    h.admin.status = async () => ({ ...STATUS, write_failures: { events: FULL, log: { ...FULL, path: '/data/daemon.log', failed_writes: 2 } } });
    expect(await runCli(['daemon', 'status'], h.deps)).toBe(0);
    expect(h.io.out()).toMatch(/event writes\s+FAILING since 2026-11-27T12:00:00.000Z: ENOSPC \(disk full\) writing \/data\/events \(1,234 failed\)\n/);
    expect(h.io.out()).toMatch(/log writes\s+FAILING since 2026-11-27T12:00:00.000Z: ENOSPC \(disk full\) writing \/data\/daemon.log \(2 failed\)\n/);
    expect(h.io.err()).toContain('warning: event writes are failing (ENOSPC (disk full) writing /data/events): requests are still served, but not recorded');
  });

  it('says nothing of writes when they work, or when an older daemon does not report them', async () => {
    for (const status of [{ ...STATUS, write_failures: { events: null, log: null } }, { ...STATUS, write_failures: undefined }]) {
      const h = harness();
      h.admin.status = async () => status;
      expect(await runCli(['daemon', 'status'], h.deps)).toBe(0);
      expect(h.io.out()).not.toContain('writes');
      expect(h.io.err()).not.toContain('writes');
    }
    expect(DaemonStatusSchema.parse({ ...STATUS, demo: null, write_failures: undefined }).write_failures).toEqual({ events: null, log: null });
  });
});
