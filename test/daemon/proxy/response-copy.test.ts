import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodingFor, ResponseCopy } from '../../../daemon/proxy/response-copy.js';

// The inspected copy on its own: exact caps (the zip-bomb guard) and the encodings it reads.

const LIMIT = 512 * 1024;

function copyOf(decoding: Parameters<typeof decodingFor>[0], wire: Buffer, chunk = 16 * 1024): Promise<{ copy: Buffer; full: boolean }> {
  let full = false;
  const c = new ResponseCopy(decodingFor(decoding)!, LIMIT, () => { full = true; });
  for (let i = 0; i < wire.length; i += chunk) c.push(wire.subarray(i, i + chunk));
  return c.finish().then((copy) => ({ copy, full }));
}

describe('ResponseCopy', () => {
  it('stops decoding a gzip bomb at the limit, exactly', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x41));
    const { copy, full } = await copyOf('gzip', bomb);
    expect(full).toBe(true);
    expect(copy.length).toBe(LIMIT);
  });

  it.each([
    ['gzip', zlib.gzipSync], ['x-gzip', zlib.gzipSync], ['br', zlib.brotliCompressSync], ['deflate', zlib.deflateSync], ['deflate', zlib.deflateRawSync],
  ] as const)('decodes %s (%#)', async (encoding, encode) => {
    const text = Buffer.from('hello '.repeat(5000));
    const { copy, full } = await copyOf(encoding, encode(text), 100);
    expect(full).toBe(false);
    expect(copy.equals(text)).toBe(true);
  });

  it('keeps identity bodies up to the limit', async () => {
    const { copy, full } = await copyOf(undefined, Buffer.alloc(LIMIT + 10, 0x42));
    expect(full).toBe(true);
    expect(copy.length).toBe(LIMIT);
  });

  it('gives what decoded before corrupt input, without throwing', async () => {
    const good = zlib.gzipSync(Buffer.from('start of the page '.repeat(100)));
    const { copy } = await copyOf('gzip', Buffer.concat([good.subarray(0, good.length - 20), Buffer.alloc(200, 0xff)]));
    expect(copy.toString().startsWith('start of the page')).toBe(true);
  });

  it('refuses what it cannot decode: stacked or unknown encodings', () => {
    expect(decodingFor('gzip, br')).toBeNull();
    expect(decodingFor('zstd')).toBeNull();
    expect(decodingFor(' IDENTITY ')).toBe('identity');
  });
});
