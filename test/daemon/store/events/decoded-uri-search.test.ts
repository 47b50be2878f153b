// A WAF-log search for `union select` finds the URI stored as sent (`union%20select`,
// `union+select` in a query), across sealed chunks and the open one, through the real event store.
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE, decodeUriLeniently, UriColumn } from '../../../../daemon/store/events/uri-column.js';
import { openJsonlEventStore, type JsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

describe('percent-decoded URI search', () => {
  it('decodes leniently: UTF-8, + as a space only in the query, broken escapes kept', () => {
    expect(decodeUriLeniently('/a+b?q=union+select%20x')).toBe('/a+b?q=union select x');
    expect(decodeUriLeniently('/caf%C3%A9')).toBe('/café');
    expect(decodeUriLeniently('/x%ZZ%27or%271')).toBe("/x%ZZ'or'1");
    expect(decodeUriLeniently('/%FF%27')).toBe("/\u00ff'");
  });

  it('finds decoded matches in position order across sealed and open chunks, below a limit', () => {
    const n = CHUNK_SIZE + 200;
    const uri = (i: number) => (i % 97 === 3 ? `/p?id=1%20UNION+SeLeCt%20${i}` : i % 97 === 5 ? `/p/union%20select` : `/plain/${i}`);
    const col = new UriColumn();
    for (let i = 0; i < n; i++) col.push(uri(i));
    const want = Array.from({ length: n }, (_, i) => i).filter((i) => i % 97 === 3 || i % 97 === 5);
    expect(want.some((i) => i >= CHUNK_SIZE)).toBe(true);
    expect(col.searchDecoded('union select', n)).toEqual(want);
    expect(col.searchDecoded('union select', CHUNK_SIZE)).toEqual(want.filter((i) => i < CHUNK_SIZE));
    // The literal search alone finds none of them: that was the bug.
    expect(col.search('union select', n)).toEqual([]);
    expect(col.searchDecoded('nothing like this', n)).toEqual([]);
  });
});

describe('the event store search', () => {
  const stores: JsonlEventStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });

  it('matches the decoded URI for a term a URI cannot carry as is, and the stored one too', async () => {
    const s = await openJsonlEventStore({ dir: tempDir(), clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 });
    stores.push(s);
    await s.appendWafEvents([
      wafEvent({ uri: '/shop?id=1%20union%20select%201,2' }),
      wafEvent({ uri: '/plain' }),
      wafEvent({ uri: '/q?s=UNION+SELECT+x' }),
      wafEvent({ uri: '/search/%3Cscript%3E' }),
    ]);
    const uris = async (search: string) => (await s.searchWafLogs({ site_id: 1, page: 1, per_page: 50, search })).logs.map((l) => l.uri);
    expect(await uris('union select')).toEqual(['/q?s=UNION+SELECT+x', '/shop?id=1%20union%20select%201,2']);
    expect(await uris('<script>')).toEqual(['/search/%3Cscript%3E']);
    expect(await uris('%3cscript')).toEqual(['/search/%3Cscript%3E']);
    const counted = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 50, search: 'union select' });
    expect(counted.pagination.total).toBe(2);
  });
});
