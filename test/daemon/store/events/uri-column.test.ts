import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE, UriColumn } from '../../../../daemon/store/events/uri-column.js';

describe('URI column', () => {
  const n = CHUNK_SIZE * 2 + 123;
  const uri = (i: number) => (i % 1000 === 7 ? `/Needle/${i}?Q=ETC/PASSWD` : `/page/${i}`);
  const col = new UriColumn();
  for (let i = 0; i < n; i++) col.push(uri(i));

  it('returns every URI as sent, across sealed chunks and the open one', () => {
    for (const i of [0, 1, CHUNK_SIZE - 1, CHUNK_SIZE, CHUNK_SIZE + 7, n - 1]) expect(col.get(i)).toBe(uri(i));
  });

  it('finds case-insensitive substrings in position order, below a limit', () => {
    const want = Array.from({ length: n }, (_, i) => i).filter((i) => uri(i).toLowerCase().includes('etc/passwd'));
    expect(col.search('etc/passwd', n)).toEqual(want);
    expect(col.search('etc/passwd', CHUNK_SIZE + 10)).toEqual(want.filter((i) => i < CHUNK_SIZE + 10));
    expect(col.search('/page/16384', n)).toEqual([16384]);
    expect(col.search('nothing-like-this', n)).toEqual([]);
    // A match never spans two URIs.
    expect(col.search('/page/1\n/page', n)).toEqual([]);
  });

  it('keeps URIs one line and survives snapshot + restore', () => {
    const c = new UriColumn();
    c.push('/a\nb');
    c.push('/İstanbul'); // lower-casing changes its length: searched as sent
    const r = UriColumn.restore(c.snapshot());
    expect(r.get(0)).toBe('/a b');
    expect(r.search('a b', 2)).toEqual([0]);
    expect(r.search('/İstanbul', 2)).toEqual([1]);
    const restored = UriColumn.restore(col.snapshot());
    expect(restored.search('etc/passwd', n)).toEqual(col.search('etc/passwd', n));
    restored.push('/x');
    expect(restored.get(n)).toBe('/x');
  });

  it('finds URIs pushed after a search of the open chunk (its lower-cased twins are made lazily)', () => {
    const c = new UriColumn();
    c.push('/A');
    expect(c.search('/a', 1)).toEqual([0]);
    c.push('/B/A');
    c.push('/İ/a');
    expect(c.search('/a', 3)).toEqual([0, 1, 2]);
    expect(c.search('/a', 2)).toEqual([0, 1]);
    for (let i = 3; i < CHUNK_SIZE + 2; i++) c.push(i === CHUNK_SIZE + 1 ? '/Z/A' : '/z');
    // Sealed now: the blob is lower-cased in one go, with the same per-line rules.
    expect(c.search('/a', CHUNK_SIZE + 2)).toEqual([0, 1, 2, CHUNK_SIZE + 1]);
    expect(c.search('/i̇', CHUNK_SIZE + 2)).toEqual([]);
    expect(c.search('/İ', CHUNK_SIZE + 2)).toEqual([2]);
  });
});
