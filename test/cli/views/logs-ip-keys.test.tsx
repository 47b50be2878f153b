// The logs view's keys for the selected client IP: i lists its recent events (the API's exact-IP
// search), B and W remove it from the blacklist or whitelist through DELETE /ip-rules (as
// `wafctl ip-rules remove`), only after y. Adding (b, w) is in logs-view.test.tsx.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { LogsView } from '../../../cli/views/LogsView.js';
import { eventually, FakeViewApi, typeKeys, wafEntry } from './fake-view-api.js';

const DOWN = '\u001b[B';
const ENTER = '\r';
let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

function show(api: FakeViewApi) {
  const view = render(<LogsView api={api} colour={false} pollMs={60_000} />);
  cleanup.push(view.unmount);
  return { frame: () => view.lastFrame() ?? '', press: (keys: string) => typeKeys(view.stdin, keys) };
}

/** Two clients: 198.51.100.7 sent events 1, 3 and 5; 198.51.100.9 sent 2 and 4. */
function twoClients(): FakeViewApi {
  const api = new FakeViewApi();
  for (let id = 1; id <= 5; id++) api.entries.push(wafEntry(id, { client_ip: id % 2 ? '198.51.100.7' : '198.51.100.9' }));
  return api;
}

describe('the logs view keys for the selected IP', () => {
  it('i lists the selected IP\'s recent events, from the list or from the detail pane', async () => {
    const api = twoClients();
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('try=5'));
    await view.press(DOWN); // event 4, 198.51.100.9
    await view.press('i');
    await eventually(() => expect(view.frame()).toContain('search "198.51.100.9"'));
    await eventually(() => expect(view.frame()).not.toContain('try=5'));
    expect(view.frame()).toContain('try=4');
    expect(view.frame()).toContain('try=2');
    expect(api.calls.at(-1)?.query).toMatchObject({ search: '198.51.100.9', page: 1 });
    // The empty search shows everything again; then the same from the detail pane.
    await view.press('/');
    await view.press('\u0015');
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('try=5'));
    await view.press(ENTER);
    await eventually(() => expect(view.frame()).toContain('WAF event 5'));
    await view.press('i');
    await eventually(() => expect(view.frame()).toContain('search "198.51.100.7"'));
    expect(view.frame()).not.toContain('WAF event 5');
    await eventually(() => expect(view.frame()).not.toContain('try=4'));
  });

  it('B removes the selected IP from the blacklist after y, n asks nothing of the API', async () => {
    const api = twoClients();
    api.listed.blacklist.add('198.51.100.7');
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('try=5'));
    await view.press('B');
    expect(view.frame()).toContain('Remove 198.51.100.7 from the blacklist? y/n');
    await view.press('n');
    expect(view.frame()).not.toContain('Remove 198.51.100.7');
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await view.press('B');
    await view.press('y');
    await eventually(() => expect(view.frame()).toContain('198.51.100.7 removed from the blacklist'));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: '/ip-rules', body: { ip: '198.51.100.7', type: 'blacklist' } }]);
    expect(api.listed.blacklist.has('198.51.100.7')).toBe(false);
  });

  it('W on an IP that is not whitelisted shows the API\'s not_found and changes nothing', async () => {
    const api = twoClients();
    api.listed.blacklist.add('198.51.100.7');
    const view = show(api);
    await eventually(() => expect(view.frame()).toContain('try=5'));
    await view.press('W');
    expect(view.frame()).toContain('Remove 198.51.100.7 from the whitelist? y/n');
    await view.press('y');
    await eventually(() => expect(view.frame()).toContain('error: not_found: 198.51.100.7 is not in the whitelist'));
    expect(api.listed.blacklist.has('198.51.100.7')).toBe(true);
  });
});
