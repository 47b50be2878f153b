// bans and protect auto-ban through the real commander tree with an in-memory daemon: what each
// command line asks the daemon for, what it prints, and usage errors that never reach the daemon.
// The daemon side and the real binary: test/daemon/bans and test/e2e/bans.test.ts.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../cli/run.js';
import { harness, type Harness } from '../../fakes.js';

const SITE = 'shop.example.test';

async function withSite(): Promise<Harness> {
  const h = harness();
  await h.admin.addSite({ domain: SITE, origin: 'http://127.0.0.1:9' });
  return h;
}

describe('wafctl bans', () => {
  it('add with --for and --reason; list as a table and as JSON; remove', async () => {
    const h = await withSite();
    expect(await runCli(['--site', SITE, 'bans', 'add', '203.0.113.7', '--for', '12h', '--reason', 'stuffing'], h.deps)).toBe(0);
    expect(h.io.err()).toContain(`203.0.113.7 banned on ${SITE} until 2026-11-28T22:00:00.000Z`);
    expect(h.admin.bans.get(SITE)![0]).toMatchObject({ ip: '203.0.113.7', reason: 'stuffing', expires_at: '2026-11-28T22:00:00.000Z' });
    const list = harness();
    list.admin.sites = h.admin.sites;
    list.admin.bans = h.admin.bans;
    expect(await runCli(['--site', SITE, 'bans', 'list'], list.deps)).toBe(0);
    expect(list.io.out()).toMatch(/IP\s+STATE\s+UNTIL\s+SOURCE\s+REASON\n203\.0\.113\.7\s+active\s+2026-11-28T22:00:00\.000Z\s+manual\s+stuffing\n/);
    const rm = harness();
    rm.admin.sites = h.admin.sites;
    rm.admin.bans = h.admin.bans;
    expect(await runCli(['--json', '--site', SITE, 'bans', 'remove', '203.0.113.7'], rm.deps)).toBe(0);
    expect(JSON.parse(rm.io.out())).toEqual([expect.objectContaining({ ip: '203.0.113.7', revoked_at: '2026-11-28T10:05:00.000Z' })]);
    const after = harness();
    after.admin.sites = h.admin.sites;
    after.admin.bans = h.admin.bans;
    expect(await runCli(['--site', SITE, 'bans', 'list'], after.deps)).toBe(0);
    expect(after.io.out()).toBe('');
    expect(after.io.err()).toContain(`no active bans on ${SITE}`);
    const all = harness();
    all.admin.sites = h.admin.sites;
    all.admin.bans = h.admin.bans;
    expect(await runCli(['--json', '--site', SITE, 'bans', 'list', '--all'], all.deps)).toBe(0);
    expect(JSON.parse(all.io.out())).toEqual([expect.objectContaining({ ip: '203.0.113.7', state: 'revoked' })]);
  });

  it('refuses a bad --for before calling the daemon', async () => {
    for (const value of ['0', '0m', 'soon', '1w', '1.5h']) {
      const h = await withSite();
      expect(await runCli(['--site', SITE, 'bans', 'add', '203.0.113.7', '--for', value], h.deps), value).toBe(2);
      expect(h.io.err(), value).toContain('must be a duration like 30m, 12h or 7d');
      expect(h.admin.bans.size).toBe(0);
    }
  });
});

describe('wafctl protect auto-ban', () => {
  it('shows off; sets with defaults for what is not given; changes one field; --off', async () => {
    const h = await withSite();
    expect(await runCli(['--json', '--site', SITE, 'protect', 'auto-ban'], h.deps)).toBe(0);
    expect(JSON.parse(h.io.out())).toBeNull();
    const set = harness();
    set.admin.sites = h.admin.sites;
    set.admin.autoBans = h.admin.autoBans;
    expect(await runCli(['--site', SITE, 'protect', 'auto-ban', '--ban-for', '2h'], set.deps)).toBe(0);
    expect(set.admin.autoBans.get(SITE)).toEqual({ strikes: 3, window_minutes: 10, ban_minutes: 120 });
    expect(set.io.out()).toMatch(/auto-ban\s+on\n/);
    // No rate limit on the site yet: said, since nothing can strike.
    expect(set.io.err()).toContain('has no rate limit yet');
    const change = harness();
    change.admin.sites = h.admin.sites;
    change.admin.autoBans = h.admin.autoBans;
    expect(await runCli(['--site', SITE, 'protect', 'auto-ban', '--strikes', '5', '--within', '1h'], change.deps)).toBe(0);
    expect(change.admin.autoBans.get(SITE)).toEqual({ strikes: 5, window_minutes: 60, ban_minutes: 120 });
    const off = harness();
    off.admin.sites = h.admin.sites;
    off.admin.autoBans = h.admin.autoBans;
    expect(await runCli(['--site', SITE, 'protect', 'auto-ban', '--off'], off.deps)).toBe(0);
    expect(off.admin.autoBans.get(SITE)).toBeNull();
    expect(off.io.err()).toContain(`auto-ban on ${SITE} is off`);
  });

  it('usage errors change nothing', async () => {
    for (const argv of [['--off', '--strikes', '2'], ['--strikes', '0'], ['--within', 'x']]) {
      const h = await withSite();
      expect(await runCli(['--site', SITE, 'protect', 'auto-ban', ...argv], h.deps), argv.join(' ')).toBe(2);
      expect(h.admin.autoBans.size).toBe(0);
    }
  });
});
