// The logs view's detail pane (Enter): the selected event's request fetched from GET /waf-logs/{id}
// and shown exactly as `wafctl logs show` prints it, with its loading and error states.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { LogsView } from '../../../cli/views/LogsView.js';
import { requestDetailText } from '../../../cli/request-detail-text.js';
import type { WafRequestDetail } from '../../../shared/schemas/waf-request.js';
import { eventually, FakeViewApi, typeKeys, wafEntry } from './fake-view-api.js';

const ESC = '\u001b';
const DOWN = '\u001b[B';
const ENTER = '\r';
let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

function show(api: FakeViewApi, props: Partial<Parameters<typeof LogsView>[0]> = {}) {
  const view = render(<LogsView api={api} colour={false} pollMs={60_000} {...props} />);
  cleanup.push(view.unmount);
  return { frame: () => view.lastFrame() ?? '', press: (keys: string) => typeKeys(view.stdin, keys) };
}

function explained(id: number, overrides: Partial<WafRequestDetail> = {}): WafRequestDetail {
  return {
    request_id: '9abeafa8-7907-49ea-bd85-fbc41ceab8df', event_timestamp: '2026-11-22T06:00:02.000Z', host: 'shop.example.test',
    client_ip: '198.51.100.2', country: null, method: 'POST', uri: '/contact/?s=x', status: null, action: 'detected',
    user_agent: 'Mozilla/5.0 detail-test', anomaly: { inbound_score: 10, inbound_threshold: 5 },
    rules: [
      {
        id, rule_id: '941100', group: 'crs', msg: 'XSS Attack Detected via libinjection', severity: 'CRITICAL', action: 'log',
        matched_var: 'ARGS:post_content', matched_data: '<script>alert(1)</script>', tags: ['attack-xss', 'paranoia-level/1'],
        file: 'REQUEST-941-APPLICATION-ATTACK-XSS.conf',
      },
    ],
    ...overrides,
  };
}

function withTwo(): FakeViewApi {
  const api = new FakeViewApi();
  api.entries.push(wafEntry(1), wafEntry(2, { action: 'detected' }));
  return api;
}

describe('the logs view detail pane', () => {
  it('shows "loading" until GET /waf-logs/{id} answers, then what `wafctl logs show` prints', async () => {
    const api = withTwo();
    const detail = explained(2);
    api.details.set(2, detail);
    let release!: () => void;
    api.detailGate = new Promise((resolve) => (release = resolve));
    const view = show(api, { countryOf: async () => 'NL' });
    await eventually(() => expect(view.frame()).toContain('try=2'));
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('loading the request…'));
    expect(api.calls.at(-1)).toMatchObject({ method: 'GET', path: '/waf-logs/2' });
    release();
    await eventually(() => expect(view.frame()).toContain('rule 941100 [crs] CRITICAL log: XSS Attack Detected via libinjection'));
    const frame = view.frame();
    expect(frame).not.toContain('loading');
    // The event stored no country: the CLI's geoip lookup fills it in, as the old pane did.
    for (const line of requestDetailText({ ...detail, country: 'NL' }).trimEnd().split('\n')) {
      if (line !== '') expect(frame).toContain(line);
    }
    expect(frame).toMatch(/action +detected/);
    expect(frame).toContain('  tags attack-xss, paranoia-level/1');
    expect(frame).toMatch(/client +198\.51\.100\.2 \(NL\)/);
    await view.press(ESC);
    await eventually(() => expect(view.frame()).not.toContain('rule 941100'));
  });

  it('shows the API error and the row it has, and goes back with Enter', async () => {
    const api = withTwo(); // no details: the fake answers 404 not_found, as the daemon does for an unknown id
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('try=2'));
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('error: not_found: no WAF event of shop.example.test has the id 2'));
    expect(view.frame()).toMatch(/waf_rule_id +200001/);
    expect(view.frame()).toMatch(/client_ip +198\.51\.100\.2/);
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).not.toContain('error: not_found'));
    expect(view.frame()).toContain('try=1');
  });

  it('fetches the next event when the selection moves, and cuts what does not fit with a pointer to logs show', async () => {
    const api = withTwo();
    api.details.set(2, explained(2));
    const many = Array.from({ length: 12 }, (_, i) => ({ ...explained(1).rules[0], id: 100 + i, rule_id: String(942100 + i) }));
    api.details.set(1, explained(1, { action: 'blocked', rules: many }));
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('try=2'));
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('rule 941100'));
    await view.press(DOWN);
    await eventually(() => expect(view.frame()).toContain('WAF event 1'));
    await eventually(() => expect(view.frame()).toMatch(/action +blocked/));
    expect(view.frame()).not.toContain('rule 941100');
    expect(view.frame()).toMatch(/… \d+ more lines: wafctl logs show 1/);
    // 24 rows (ink-testing-library has no size): the pane never pushes the view off the screen.
    expect(view.frame().split('\n').length).toBeLessThanOrEqual(24);
  });
});
