import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedSplitter, FeedSyntaxError } from '../../../daemon/vulndb/feed-splitter.js';
import { SAMPLE_FEED } from './helpers.js';

function split(chunks: Buffer[], maxRecordBytes?: number): [string, unknown][] {
  const out: [string, unknown][] = [];
  const s = new FeedSplitter((k, v) => out.push([k, v]), maxRecordBytes);
  for (const c of chunks) s.push(c);
  s.end();
  return out;
}

function chunked(text: string | Buffer, cuts: number[]): Buffer[] {
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(buf.subarray(prev, p));
    prev = p;
  }
  out.push(buf.subarray(prev));
  return out;
}

function errorOf(fn: () => unknown): FeedSyntaxError {
  try {
    fn();
  } catch (err) {
    if (err instanceof FeedSyntaxError) return err;
    throw err;
  }
  throw new Error('expected a FeedSyntaxError');
}

describe('FeedSplitter', () => {
  it('yields every member of the sample feed, equal to JSON.parse, whatever the chunking', () => {
    const bytes = readFileSync(SAMPLE_FEED);
    const expected = Object.entries(JSON.parse(bytes.toString('utf8')) as Record<string, unknown>);
    expect(split([bytes])).toEqual(expected);
    expect(split(chunked(bytes, Array.from({ length: 400 }, (_, i) => i * 307)))).toEqual(expected);
    // one byte at a time: every state boundary is crossed mid-chunk
    expect(split(chunked(bytes, Array.from({ length: bytes.length }, (_, i) => i)))).toEqual(expected);
  });

  it('matches JSON.parse for arbitrary objects at arbitrary chunk boundaries', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value), fc.array(fc.nat(), { maxLength: 20 }), fc.boolean(), (obj, cuts, pretty) => {
        const text = JSON.stringify(obj, null, pretty ? 2 : undefined);
        // JSON.parse keeps the last of duplicate keys in first position; dictionaries have none.
        expect(split(chunked(text, cuts))).toEqual(Object.entries(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });

  it('handles escapes, multibyte UTF-8 split inside a character, scalars and a BOM', () => {
    const text = '\ufeff{ "a\\"b": {"t": "x\\\\\\"}{[é€😀"}, "n": 12.5e3 , "s": "}" ,"z":null,"arr":[1,{"q":"]"}]}\n';
    const bytes = Buffer.from(text);
    const expected = Object.entries(JSON.parse(text.slice(1)));
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(split([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(expected);
    }
  });

  it('accepts an empty object', () => {
    expect(split([Buffer.from(' {\n} ')])).toEqual([]);
  });

  it('rejects a document that is not an object', () => {
    expect(errorOf(() => split([Buffer.from('[{"id": 1}]')])).code).toBe('not_json_object');
    expect(errorOf(() => split([Buffer.from('"text"')])).code).toBe('not_json_object');
    expect(errorOf(() => split([Buffer.from('   ')])).code).toBe('not_json_object');
    expect(errorOf(() => split([])).code).toBe('not_json_object');
  });

  it('rejects truncation anywhere before the closing brace', () => {
    const text = Buffer.from('{"a": {"x": [1, 2, "three"]}, "b": {"y": "z"}}');
    for (let cut = 1; cut < text.length; cut++) {
      const err = errorOf(() => split([text.subarray(0, cut)]));
      expect(['truncated', 'invalid_json']).toContain(err.code);
      if (cut > 2 && text[cut - 1] !== 0x3a) expect(err.code).toBe('truncated');
    }
  });

  it('rejects malformed structure and malformed values with the byte offset', () => {
    const cases = ['{"a" 1}', '{"a": 1,}', '{"a": 1 "b": 2}', '{a: 1}', '{"a": {"x": }}', '{"a": [1, 2}', '{"a": 1}}', '{"a": 1} x', '{"a": tru}'];
    for (const c of cases) {
      const err = errorOf(() => split([Buffer.from(c)]));
      expect(err.code, c).toBe('invalid_json');
      expect(err.message).toMatch(/byte \d+/);
    }
  });

  it('enforces the per-record ceiling', () => {
    const big = `{"a": "${'x'.repeat(5000)}"}`;
    expect(errorOf(() => split(chunked(big, [100, 2000, 4000]), 1024)).code).toBe('record_too_large');
    expect(split([Buffer.from(big)], 8192)).toHaveLength(1);
  });
});
