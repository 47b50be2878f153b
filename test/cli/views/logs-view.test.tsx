import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api-client/index.js';
import { LogsView } from '../../../cli/views/LogsView.js';
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
  return { ...view, frame: () => view.lastFrame() ?? '', press: (keys: string) => typeKeys(view.stdin, keys) };
}

function withEntries(n: number): FakeViewApi {
  const api = new FakeViewApi();
  for (let id = 1; id <= n; id++) api.entries.push(wafEntry(id));
  return api;
}

describe('LogsView', () => {
  it('shows events newest first with a header of counts per group and the selection marked', async () => {
    const view = show(withEntries(3));
    await eventually(() => expect(view.frame()).toContain('/wp-login.php?try=1'));
    const lines = view.frame().split('\n');
    const rowOf = (id: number) => lines.findIndex((l) => l.includes(`try=${id}`));
    expect(rowOf(3)).toBeLessThan(rowOf(2));
    expect(rowOf(2)).toBeLessThan(rowOf(1));
    expect(lines[rowOf(3)]).toMatch(/^› /);
    expect(lines[0]).toContain('page 1/1 · 3 total');
    expect(lines[0]).toContain('crs 2 · cms 1');
    expect(view.frame()).toMatch(/TIME\s+ACTION\s+IP\s+RULE\s+GROUP\s+HOST\s+URI/);
  });

  it('says on every row what the edge did, so a detect-mode match does not look like a block', async () => {
    const api = new FakeViewApi();
    api.entries.push(wafEntry(1, { action: 'detected' }), wafEntry(2, { action: 'blocked' }), wafEntry(3, { action: 'rate-limited' }));
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('try=1'));
    const rowOf = (id: number) => view.frame().split('\n').find((l) => l.includes(`try=${id}`));
    expect(rowOf(1)).toMatch(/ detected +198\.51\.100\.1 /);
    expect(rowOf(2)).toMatch(/ blocked +198\.51\.100\.2 /);
    expect(rowOf(3)).toMatch(/ rate-limited +198\.51\.100\.3 /);
    expect(api.calls[0].query).toMatchObject({ include: 'action' });
  });

  it('moves with arrows and j/k, and Enter opens the selected event (logs-detail.test.tsx has the pane)', async () => {
    const view = show(withEntries(3));
    await eventually(() => expect(view.frame()).toContain('try=3'));
    await view.press(DOWN);
    await view.press('j');
    await view.press('k');
    expect(view.frame().split('\n').find((l) => l.startsWith('› '))).toContain('try=2');
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('WAF event 2'));
    await view.press(ESC);
    await eventually(() => expect(view.frame()).not.toContain('WAF event 2'));
    expect(view.frame()).toContain('try=2');
  });

  it('searches with / using the API search and clears it with an empty search', async () => {
    const api = withEntries(6);
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('try=6'));
    await view.press('/');
    for (const ch of 'cms') await view.press(ch);
    expect(view.frame()).toContain('search: cms');
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('search "cms"'));
    await eventually(() => expect(view.frame()).not.toContain('try=5'));
    expect(view.frame()).toContain('try=6');
    expect(api.calls.at(-1)?.query).toMatchObject({ search: 'cms', page: 1 });
    await view.press('/');
    await view.press('\u0015'); // Ctrl+U empties the draft
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('try=5'));
    await view.press('/');
    for (const ch of 'nothing-here') await view.press(ch);
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('no WAF events match "nothing-here"'));
  });

  it('pages with n and p', async () => {
    const api = withEntries(25);
    const view = show(api, { perPage: 10 });
    await eventually(() => expect(view.frame()).toContain('page 1/3 · 25 total'));
    await view.press('n');
    await eventually(() => expect(view.frame()).toContain('page 2/3'));
    expect(view.frame()).toContain('try=15');
    expect(view.frame()).not.toContain('try=25');
    await view.press('n');
    await view.press('n'); // already on the last page
    await eventually(() => expect(view.frame()).toContain('page 3/3'));
    await view.press('p');
    await eventually(() => expect(view.frame()).toContain('page 2/3'));
    expect(api.calls.filter((c) => c.path === '/waf-logs').map((c) => c.query?.page)).toEqual([1, 2, 3, 2]);
  });

  it('blacklists and whitelists the selected IP only after y, and shows the API error', async () => {
    const api = withEntries(3);
    api.entries.push(wafEntry(66));
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('try=66'));
    await view.press('b');
    expect(view.frame()).toContain('Blacklist 198.51.100.66? y/n');
    await view.press('n');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await view.press(DOWN);
    await view.press('b');
    await view.press('y');
    await eventually(() => expect(view.frame()).toContain('198.51.100.3 added to the blacklist'));
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: '/ip-rules/blacklist', body: { ip: '198.51.100.3', description: 'wafctl logs: rule 942100 (crs)' } },
    ]);
    await view.press('k');
    await view.press('w');
    expect(view.frame()).toContain('Whitelist 198.51.100.66? y/n');
    await view.press('y');
    await eventually(() => expect(view.frame()).toContain('error: duplicate: 198.51.100.66 is already in the whitelist'));
  });

  it('shows help with ? and closes it', async () => {
    const view = show(withEntries(1));
    await eventually(() => expect(view.frame()).toContain('try=1'));
    await view.press('?');
    expect(view.frame()).toContain('blacklist the selected IP');
    expect(view.frame()).toContain('every 60 s (polling GET /waf-logs)');
    await view.press('?');
    expect(view.frame()).not.toContain('blacklist the selected IP');
  });

  it('has an empty state and an API error state, and recovers on the next poll', async () => {
    const empty = show(new FakeViewApi());
    await eventually(() => expect(empty.frame()).toContain('no WAF events yet'));

    const api = withEntries(2);
    api.failWith = new ApiError('invalid_api_key', 'the API key is not valid', { status: 401 });
    const view = show(api, { pollMs: 50 });
    await eventually(() => expect(view.frame()).toContain('error: invalid_api_key: the API key is not valid (retrying every 0.05 s)'));
    expect(view.frame()).not.toContain('try=');
    api.failWith = undefined;
    await eventually(() => expect(view.frame()).toContain('try=2'));
    expect(view.frame()).not.toContain('error:');
  });

  it('follows new events by polling and keeps the cursor on the event it was on', async () => {
    const api = withEntries(3);
    const view = show(api, { pollMs: 50 });
    await eventually(() => expect(view.frame()).toContain('try=3'));
    await view.press(DOWN); // on try=2
    api.entries.push(wafEntry(4), wafEntry(5));
    await eventually(() => expect(view.frame()).toContain('try=5'));
    await eventually(() => expect(view.frame().split('\n').find((l) => l.startsWith('› '))).toContain('try=2'));
  });

  it('fits rows to the terminal width', async () => {
    const api = new FakeViewApi();
    api.entries.push(wafEntry(1, { uri: '/' + 'x'.repeat(300) }));
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('xxx'));
    for (const line of view.frame().split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
    expect(view.frame()).toContain('…');
  });
});
