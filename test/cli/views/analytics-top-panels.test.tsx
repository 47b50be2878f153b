import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { PERIOD_HOURS, type Analytics, type AnalyticsPeriod } from '../../../shared/schemas/management-api.js';
import type { TopKind, TopList } from '../../../shared/schemas/top-lists.js';
import { AnalyticsView } from '../../../cli/views/AnalyticsView.js';
import { eventually, FakeViewApi, typeKeys } from './fake-view-api.js';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

function analytics(period: AnalyticsPeriod, requests: number, blocked: number): Analytics {
  const hourly_data = Array.from({ length: PERIOD_HOURS[period] }, (_, i) => ({ hour: new Date(Date.UTC(2026, 10, 22) + i * 3_600_000).toISOString(), requests: 0, blocked: 0 }));
  return { period, total_requests: requests, unique_visitors: 3, requests_blocked: blocked, hourly_data };
}

function list(kind: TopKind, items: TopList['items'], total: number): TopList {
  return { kind, limit: 10, total, distinct: items.length + 20, exact: true, items };
}

/** The fake with 24h totals and one list of each kind; `many` gives the IP list more rows than fit. */
function api(many = 3): FakeViewApi {
  const a = new FakeViewApi();
  a.analytics.set('24h', analytics('24h', 1_000, 120));
  a.analytics.set('7d', analytics('7d', 9_000, 900));
  a.tops.set('24h:ips', list('ips', Array.from({ length: many }, (_, i) => ({ key: `203.0.113.${i + 1}`, count: 500 - i, blocked: i === 0 ? 100 : 0 })), 1_000));
  a.tops.set('7d:ips', list('ips', [{ key: '192.0.2.77', count: 4_000, blocked: 0 }], 9_000));
  a.tops.set('24h:uris', list('uris', [{ key: '/wp-login.php', count: 300, blocked: 120 }], 1_000));
  a.tops.set('24h:rules', list('rules', [{ key: '942100', group: 'crs', count: 40, blocked: 38 }], 40));
  a.tops.set('24h:countries', list('countries', [{ key: 'DE', count: 600, blocked: 2 }], 1_000));
  a.tops.set('24h:statuses', list('statuses', [{ key: '200', count: 800, blocked: 0 }], 1_000));
  return a;
}

function show(fake: FakeViewApi, top?: TopKind) {
  const view = render(<AnalyticsView api={fake} colour={false} pollMs={60_000} top={top} />);
  cleanup.push(view.unmount);
  return { frame: () => view.lastFrame() ?? '', press: (keys: string) => typeKeys(view.stdin, keys) };
}

const topCalls = (fake: FakeViewApi) => fake.calls.filter((c) => c.query?.top !== undefined).map((c) => `${String(c.query?.period)}:${String(c.query?.top)}`);

describe('AnalyticsView top panels', () => {
  it('t and Tab walk charts, IPs, URIs, rules, countries, statuses and back; T goes back one', async () => {
    const fake = api();
    const view = show(fake);
    await eventually(() => expect(view.frame()).toContain('requests / hour'));
    expect(view.frame()).toContain('›charts');

    await view.press('t');
    await eventually(() => expect(view.frame()).toContain('203.0.113.1'));
    expect(view.frame()).toContain('›ips');
    expect(view.frame()).not.toContain('requests / hour');
    expect(view.frame()).toContain('requests 1,000 · unique visitors 3 · blocked 120 (12.0%)');
    expect(view.frame()).toContain('top 3 of 23 client IPs · 1,000 requests');
    const row = view.frame().split('\n').find((l) => l.startsWith('203.0.113.1 '))!;
    expect(row).toMatch(/^203\.0\.113\.1\s+500\s+50%\s+█+\s+100$/);

    await view.press('\t');
    await eventually(() => expect(view.frame()).toContain('/wp-login.php'));
    await view.press('t');
    await eventually(() => expect(view.frame()).toMatch(/942100\s+crs\s+40\s+100%/));
    await view.press('t');
    await eventually(() => expect(view.frame()).toMatch(/DE\s+600\s+60%/));
    await view.press('t');
    await eventually(() => expect(view.frame()).toMatch(/200\s+800\s+80%/));
    await view.press('t');
    await eventually(() => expect(view.frame()).toContain('requests / hour'));
    await view.press('T');
    await eventually(() => expect(view.frame()).toContain('›statuses'));
    expect(topCalls(fake)).toEqual(['24h:ips', '24h:uris', '24h:rules', '24h:countries', '24h:statuses', '24h:statuses']);
  });

  it('opens on the panel it is given, keeps it when the period changes, and asks for the rows that fit', async () => {
    const fake = api(40);
    const view = show(fake, 'ips');
    await eventually(() => expect(view.frame()).toContain('203.0.113.1 '));
    // 24 rows (ink-testing-library's terminal): 9 rows of chrome and 2 of the panel's head leave 13.
    expect(fake.calls[0].query).toEqual({ period: '24h', top: 'ips', limit: 13 });
    expect(view.frame()).toContain('203.0.113.13 ');
    expect(view.frame()).not.toContain('203.0.113.14 ');

    await view.press('2');
    await eventually(() => expect(view.frame()).toContain('192.0.2.77'));
    expect(view.frame()).toContain('Analytics · 7d');
    expect(view.frame()).not.toContain('203.0.113.1 ');
  });

  it('shows an empty list as such, and an API error without mislabelling the last answer', async () => {
    const fake = api();
    fake.tops.set('24h:uris', list('uris', [], 0));
    const view = show(fake, 'uris');
    await eventually(() => expect(view.frame()).toContain('no requests in this period'));
    fake.tops.delete('24h:rules');
    await view.press('t'); // rules: not in the fake, so the API error shows
    await eventually(() => expect(view.frame()).toContain('error: not_found: no top rules'));
    expect(view.frame()).not.toContain('no requests in this period');
  });
});
