// `wafctl analytics --top KIND`: the table, the JSON items, the empty period, and the usage errors
// that stop a bad kind, limit or period before anything is asked of the API (a fake API here;
// test/e2e/analytics-top.test.ts runs the real daemon and process).
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../shared/api-client/index.js';
import { PERIOD_HOURS } from '../../../../shared/schemas/management-api.js';
import { runCli } from '../../../../cli/run.js';
import { harness } from '../../fakes.js';
import { FakeViewApi } from '../../views/fake-view-api.js';

function setup() {
  const h = harness({ WAFCTL_SERVER: 'https://127.0.0.1:9443', WAFCTL_KEY: 'k'.repeat(64) }, { columns: 120 });
  const api = new FakeViewApi();
  api.analytics.set('24h', { period: '24h', total_requests: 300, unique_visitors: 2, requests_blocked: 30, hourly_data: Array.from({ length: PERIOD_HOURS['24h'] }, (_, i) => ({ hour: String(i), requests: 0, blocked: 0 })) });
  api.tops.set('24h:rules', {
    kind: 'rules', limit: 10, total: 40, distinct: 2, exact: false,
    items: [{ key: '942100', group: 'crs', count: 30, blocked: 30 }, { key: '200002', group: 'cms', count: 10, blocked: 0 }],
  });
  api.tops.set('24h:uris', { kind: 'uris', limit: 10, total: 0, distinct: 0, exact: true, items: [] });
  h.deps.apiClient = async () => api as unknown as ApiClient;
  return { h, api };
}

describe('wafctl analytics --top', () => {
  it('prints a table with group, share and blocked, the summary and the not-exact note on stderr', async () => {
    const { h, api } = setup();
    expect(await runCli(['analytics', '--top', 'rules', '--limit', '5'], h.deps)).toBe(0);
    expect(api.calls.at(-1)?.query).toEqual({ period: '24h', top: 'rules', limit: 5 });
    expect(h.io.out().split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^RULE\s+GROUP\s+EVENTS\s+SHARE\s+BLOCKED$/),
      expect.stringMatching(/^942100\s+crs\s+30\s+75%\s+30$/),
      expect.stringMatching(/^200002\s+cms\s+10\s+25%\s+0$/),
    ]);
    expect(h.io.err()).toContain('top 2 of 2 rules, 24h, 40 events');
    expect(h.io.err()).toContain('counts are lower bounds');
  });

  it('prints the items for --json, [] for an empty period, and says so on stderr for humans', async () => {
    const { h } = setup();
    expect(await runCli(['--json', 'analytics', '--top', 'rules'], h.deps)).toBe(0);
    expect(JSON.parse(h.io.out())).toEqual([{ key: '942100', group: 'crs', count: 30, blocked: 30 }, { key: '200002', group: 'cms', count: 10, blocked: 0 }]);
    const empty = setup();
    expect(await runCli(['--json', 'analytics', '--top', 'uris'], empty.h.deps)).toBe(0);
    expect(empty.h.io.out()).toBe('[]\n');
    const human = setup();
    expect(await runCli(['analytics', '--top', 'uris'], human.h.deps)).toBe(0);
    expect(human.h.io.out()).toBe('');
    expect(human.h.io.err()).toContain('no requests in 24h');
  });

  it('exits 2 with a usage error for a bad kind, limit or period, and asks nothing of the API', async () => {
    for (const args of [['--top', 'banana'], ['--top', 'ips', '--limit', '0'], ['--top', 'ips', '--limit', 'abc'], ['--top', 'ips', '--limit', '101'], ['--top', 'ips', '--period', '1y'], ['--limit', '5']]) {
      const { h, api } = setup();
      expect(await runCli(['analytics', ...args], h.deps), args.join(' ')).toBe(2);
      expect(h.io.err()).toMatch(/^error: usage_error: /);
      expect(api.calls).toEqual([]);
    }
  });
});
