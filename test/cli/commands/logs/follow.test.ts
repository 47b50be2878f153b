// --follow's loop against the in-memory API: only events stored after the start, oldest first
// per poll, each id once, bursts spanning several pages, transient errors retried, others fatal.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/api-client/index.js';
import { followLogs } from '../../../../cli/commands/logs/follow.js';
import { FakeViewApi, wafEntry } from '../../views/fake-view-api.js';

function run(api: FakeViewApi, polls: number, between: (poll: number) => void, search?: string) {
  const lines: string[] = [];
  const warnings: string[] = [];
  let poll = 0;
  const done = followLogs(api, {
    search,
    write: (line) => lines.push(line),
    warn: (message) => warnings.push(message),
    sleep: async () => between(++poll),
    stopped: () => poll >= polls,
  });
  return done.then(() => ({ ids: lines.map((l) => (JSON.parse(l) as { id: number }).id), lines, warnings }));
}

describe('followLogs', () => {
  it('prints only new events, oldest of each poll first, never an id twice', async () => {
    const api = new FakeViewApi();
    for (let id = 1; id <= 5; id++) api.entries.push(wafEntry(id));
    let next = 6;
    const { ids, lines } = await run(api, 5, (poll) => {
      const add = [0, 3, 0, 2][poll - 1] ?? 0;
      for (let i = 0; i < add; i++) api.entries.push(wafEntry(next++));
    });
    expect(ids).toEqual([6, 7, 8, 9, 10]);
    expect(JSON.parse(lines[0])).toEqual(wafEntry(6));
  });

  it('reads every page of a burst larger than one page', async () => {
    const api = new FakeViewApi();
    api.entries.push(wafEntry(1));
    const { ids } = await run(api, 2, (poll) => {
      if (poll === 1) for (let id = 2; id <= 251; id++) api.entries.push(wafEntry(id));
    });
    expect(ids).toEqual(Array.from({ length: 250 }, (_, i) => i + 2));
  });

  it('starting on an empty store, everything stored later is new; the search applies', async () => {
    const api = new FakeViewApi();
    const { ids } = await run(api, 2, (poll) => {
      if (poll === 1) for (let id = 1; id <= 4; id++) api.entries.push(wafEntry(id));
    }, 'cms');
    expect(ids).toEqual([2, 4]);
    expect(api.calls.every((c) => c.query?.search === 'cms')).toBe(true);
  });

  it('retries unreachable and 5xx answers with a warning, and stops on others', async () => {
    const api = new FakeViewApi();
    api.entries.push(wafEntry(1));
    const { ids, warnings } = await run(api, 3, (poll) => {
      if (poll === 1) api.failWith = new ApiError('api_unreachable', 'cannot reach https://127.0.0.1:9443 (ECONNREFUSED)');
      if (poll === 2) {
        api.failWith = undefined;
        api.entries.push(wafEntry(2));
      }
    });
    expect(ids).toEqual([2]);
    expect(warnings).toEqual(['api_unreachable: cannot reach https://127.0.0.1:9443 (ECONNREFUSED) (retrying)']);

    api.failWith = new ApiError('invalid_api_key', 'the API key is not valid', { status: 401 });
    await expect(run(api, 3, () => {})).rejects.toThrow('the API key is not valid');
  });
});
