// Which output `wafctl logs` and `wafctl analytics` choose: the Ink view only on an interactive
// terminal (and never with --json), the plain outputs otherwise, unchanged.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../shared/api-client/index.js';
import { registerAnalytics } from '../../../../cli/commands/analytics/index.js';
import { registerLogs } from '../../../../cli/commands/logs/index.js';
import type { ViewLauncher } from '../../../../cli/views/launcher.js';
import { harness } from '../../fakes.js';
import { FakeViewApi, wafEntry } from '../../views/fake-view-api.js';

function setup(options: { interactive: boolean; env?: Record<string, string> }) {
  const h = harness({ WAFCTL_SERVER: 'https://127.0.0.1:9443', WAFCTL_KEY: 'k'.repeat(64), ...options.env }, { isTTY: options.interactive, columns: 120 });
  const api = new FakeViewApi();
  api.entries.push(wafEntry(1), wafEntry(2));
  h.deps.apiClient = async () => api as unknown as ApiClient;
  const shown: Array<{ view: string; props: Record<string, unknown> }> = [];
  const views: ViewLauncher = {
    interactive: () => options.interactive,
    showLogs: async (props) => void shown.push({ view: 'logs', props: props as unknown as Record<string, unknown> }),
    showAnalytics: async (props) => void shown.push({ view: 'analytics', props: props as unknown as Record<string, unknown> }),
    countryOf: async () => undefined,
  };
  const program = new Command('wafctl').option('--json').option('--no-color').exitOverride();
  registerLogs(program, h.deps, views);
  registerAnalytics(program, h.deps, views);
  const run = (...args: string[]) => program.parseAsync(args, { from: 'user' });
  return { h, api, shown, run };
}

describe('wafctl logs and analytics: view or plain output', () => {
  it('opens the logs view for bare `logs`, --tui and --follow on a terminal, with the colour rules', async () => {
    const t = setup({ interactive: true });
    await t.run('logs');
    await t.run('logs', '--tui', '--search', 'cms');
    await t.run('--no-color', 'logs', '--follow');
    expect(t.shown.map((s) => [s.view, s.props.search, s.props.colour])).toEqual([
      ['logs', undefined, true],
      ['logs', 'cms', true],
      ['logs', undefined, false],
    ]);
    const noColour = setup({ interactive: true, env: { NO_COLOR: '1' } });
    await noColour.run('analytics');
    expect(noColour.shown).toEqual([{ view: 'analytics', props: expect.objectContaining({ period: '24h', colour: false }) }]);
  });

  it('prints the table for other flags on a terminal, and JSON with --json even with --tui', async () => {
    const t = setup({ interactive: true });
    await t.run('logs', '--search', 'crs');
    expect(t.h.io.out()).toContain('/wp-login.php?try=1');
    await t.run('--json', 'logs', '--tui');
    await t.run('analytics', '--period', '7d').catch(() => undefined); // the fake has no 7d data
    expect(t.shown).toEqual([]);
  });

  it('on a pipe: --tui prints the plain table with a note, --json is the API data unchanged', async () => {
    const t = setup({ interactive: false });
    await t.run('logs', '--tui');
    expect(t.h.io.out()).toContain('/wp-login.php?try=2');
    expect(t.h.io.err()).toContain('--tui needs an interactive terminal');
    const j = setup({ interactive: false });
    await j.run('--json', 'logs');
    expect(JSON.parse(j.h.io.out())).toEqual({ logs: [wafEntry(2), wafEntry(1)], pagination: { page: 1, per_page: 50, total: 2, total_pages: 1 } });
    expect(j.shown).toEqual([]);
  });

  it('analytics --top prints the list on a terminal; with --tui the view opens on that panel', async () => {
    const t = setup({ interactive: true });
    await t.run('analytics', '--top', 'ips').catch(() => undefined); // the fake has no 24h data
    expect(t.shown).toEqual([]);
    await t.run('analytics', '--tui', '--top', 'countries');
    expect(t.shown).toEqual([{ view: 'analytics', props: expect.objectContaining({ period: '24h', top: 'countries' }) }]);
  });

  it('--follow with --page is a usage error and calls nothing', async () => {
    const t = setup({ interactive: false });
    await expect(t.run('logs', '--follow', '--page', '2')).rejects.toMatchObject({ code: 'usage_error' });
    expect(t.api.calls).toEqual([]);
  });
});
