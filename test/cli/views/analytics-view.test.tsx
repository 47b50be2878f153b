import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api-client/index.js';
import { PERIOD_HOURS, type Analytics, type AnalyticsPeriod } from '../../../shared/schemas/management-api.js';
import { AnalyticsView } from '../../../cli/views/AnalyticsView.js';
import { barRows, compact } from '../../../cli/views/bar-chart.js';
import { eventually, FakeViewApi, typeKeys } from './fake-view-api.js';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

function analytics(period: AnalyticsPeriod, requests: number, blocked: number): Analytics {
  const hours = PERIOD_HOURS[period];
  return {
    period,
    total_requests: requests,
    unique_visitors: Math.floor(requests / 10),
    requests_blocked: blocked,
    hourly_data: Array.from({ length: hours }, (_, i) => ({
      hour: new Date(Date.UTC(2026, 10, 22) - (hours - 1 - i) * 3_600_000).toISOString(),
      requests: i === hours - 1 ? requests : 0,
      blocked: i === hours - 1 ? blocked : 0,
    })),
  };
}

function show(api: FakeViewApi, pollMs = 60_000) {
  const view = render(<AnalyticsView api={api} colour={false} pollMs={pollMs} />);
  cleanup.push(view.unmount);
  return { ...view, frame: () => view.lastFrame() ?? '', press: (keys: string) => typeKeys(view.stdin, keys) };
}

describe('AnalyticsView', () => {
  it('shows totals, block rate and charts as wide as the terminal, and switches period with 1-4', async () => {
    const api = new FakeViewApi();
    api.analytics.set('24h', analytics('24h', 12_345, 45));
    api.analytics.set('7d', analytics('7d', 99_000, 9_900));
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('requests 12,345 · unique visitors 1,234 · blocked 45 (0.36%)'));
    expect(view.frame()).toContain('Analytics · 24h');
    expect(view.frame()).toContain('requests / hour (max 12k)');
    expect(view.frame()).toContain('2026-11-21 01:00 … 2026-11-22 00:00 UTC, 24 hours');
    // 24 hourly points in a 100-column terminal: one column each, the last hour full height.
    const bars = view.frame().split('\n').filter((l) => l.includes('█'));
    expect(bars.length).toBeGreaterThan(1);
    for (const line of view.frame().split('\n')) expect([...line].length).toBeLessThanOrEqual(100);

    await view.press('2');
    await eventually(() => expect(view.frame()).toContain('blocked 9,900 (10.0%)'));
    expect(view.frame()).toContain('Analytics · 7d');
    expect(view.frame()).toContain('168 hours');
    expect(api.calls.map((c) => c.query?.period)).toEqual(['24h', '7d']);
    await view.press('3'); // nothing for 30d in the fake: the API error shows, nothing mislabelled
    await eventually(() => expect(view.frame()).toContain('error: not_found: no analytics'));
    expect(view.frame()).not.toContain('9,900');
  });

  it('refreshes on its interval and on r, and shows an API error state', async () => {
    const api = new FakeViewApi();
    api.failWith = new ApiError('feature_unavailable', 'analytics is not in the free plan', { status: 403 });
    const view = show(api, 50);
    await eventually(() => expect(view.frame()).toContain('error: feature_unavailable: analytics is not in the free plan (retrying every 0.05 s)'));
    api.failWith = undefined;
    api.analytics.set('24h', analytics('24h', 10, 0));
    await eventually(() => expect(view.frame()).toContain('requests 10 ·'));
    expect(view.frame()).not.toContain('error:');
    const before = api.calls.length;
    await view.press('r');
    // The refresh that r asks for is dispatched asynchronously; on a loaded machine it lands a moment later.
    await eventually(() => expect(api.calls.length).toBeGreaterThan(before));
  });

  it('draws bars in eighths, scaled to the largest bucket, at the width given', () => {
    expect(barRows([0, 4, 8], 10, 1)).toEqual([' ▄█']);
    expect(barRows([0, 1, 16], 3, 2)).toEqual(['  █', ' ▁█']);
    expect(barRows(Array(100).fill(1), 20, 1)[0]).toHaveLength(20);
    expect(barRows([0, 0], 5, 2)).toEqual(['  ', '  ']);
    expect(compact(999)).toBe('999');
    expect(compact(12_345)).toBe('12k');
    expect(compact(1_500_000)).toBe('1.5M');
  });
});
