import { describe, expect, it } from 'vitest';
import { readEntries, readEntryGroups, type ReadItem } from '../../../shared/ingest-client/entry-reader.js';

async function* chunks(text: string, size: number): AsyncIterable<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function read(text: string, size = 3): Promise<ReadItem[]> {
  const items: ReadItem[] = [];
  for await (const item of readEntries(chunks(text, size))) items.push(item);
  return items;
}

describe('readEntries', () => {
  it('reads NDJSON line by line, skipping blank lines, across any chunking', async () => {
    const text = '{"a":1}\n\n{"b":"x\\ny"}\r\n{"c":[1,2]}';
    for (const size of [1, 2, 5, 100]) {
      expect(await read(text, size)).toEqual([
        { line: 1, value: { a: 1 }, text: '{"a":1}' },
        { line: 3, value: { b: 'x\ny' }, text: '{"b":"x\\ny"}\r' },
        { line: 4, value: { c: [1, 2] }, text: '{"c":[1,2]}' },
      ]);
    }
  });

  it('reports a line that is not JSON and goes on', async () => {
    const items = await read('{"a":1}\nnot json\n{"b":2}\n');
    expect(items[1]).toMatchObject({ line: 2, error: expect.stringContaining('not valid JSON') });
    expect(items[2]).toEqual({ line: 3, value: { b: 2 }, text: '{"b":2}' });
  });

  it('splits a JSON array into elements, minding strings, escapes and nesting', async () => {
    const text = ' [\n {"u":"/a,b]}","q":"say \\"hi\\""},\n {"n":{"deep":[1,{"x":"]"}]}},\n 42\n]\n';
    for (const size of [1, 4, 1000]) {
      expect(await read(text, size)).toEqual([
        { line: 2, value: { u: '/a,b]}', q: 'say "hi"' }, text: '{"u":"/a,b]}","q":"say \\"hi\\""}' },
        { line: 3, value: { n: { deep: [1, { x: ']' }] } }, text: '{"n":{"deep":[1,{"x":"]"}]}}' },
        { line: 4, value: 42, text: '42\n' },
      ]);
    }
  });

  it('reports a truncated array and data after it', async () => {
    expect((await read('[{"a":1},{"b":')).at(-1)).toMatchObject({ error: expect.stringContaining('not closed') });
    expect((await read('[{"a":1}] {"b":2}')).at(-1)).toMatchObject({ error: expect.stringContaining('after the closing') });
  });

  it('yields nothing for empty or blank input, and [] is an empty array', async () => {
    expect(await read('')).toEqual([]);
    expect(await read('  \n \n')).toEqual([]);
    expect(await read('[]')).toEqual([]);
  });

  it('keeps a UTF-8 character whole when a chunk boundary splits it', async () => {
    const bytes = Buffer.from('{"u":"/€😀"}\n[]\n', 'utf8');
    for (let at = 1; at < bytes.length; at++) {
      const items: ReadItem[] = [];
      async function* split() {
        yield bytes.subarray(0, at);
        yield bytes.subarray(at);
      }
      for await (const item of readEntries(split())) items.push(item);
      expect(items, `split at ${at}`).toEqual([
        { line: 1, value: { u: '/€😀' }, text: '{"u":"/€😀"}' },
        { line: 2, value: [], text: '[]' },
      ]);
    }
  });

  it('gives the entries of each chunk as one group', async () => {
    const groups: ReadItem[][] = [];
    async function* two() {
      yield '{"a":1}\n{"a":2}\n{"a"';
      yield ':3}\n';
    }
    for await (const group of readEntryGroups(two())) groups.push(group);
    expect(groups.map((g) => g.map((i) => ('value' in i ? (i.value as { a: number }).a : i.error)))).toEqual([[1, 2], [3]]);
  });
});
