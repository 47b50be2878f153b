import { describe, expect, it } from 'vitest';
import { ChunkedDecoder, type ChunkedStep } from '../../../daemon/proxy/chunked-body.js';

// The chunked decoder of upgrade request bodies: the body it returns is what the WAF inspects and
// what the origin gets, so it must decode the same bytes however the input is split across
// socket reads, stop exactly at the end of the body, and refuse any framing it is not sure of.

/** Pushes `parts` until the decoder is done; `after`: what followed the body (rest and unpushed parts). */
function decode(parts: Buffer[], max = 1 << 20): { step: ChunkedStep; body: string; after: string } {
  const d = new ChunkedDecoder(max);
  let step: ChunkedStep = { kind: 'more' };
  let i = 0;
  while (i < parts.length) {
    step = d.push(parts[i++]);
    if (step.kind !== 'more') break;
  }
  const after = step.kind === 'done' ? Buffer.concat([step.rest, ...parts.slice(i)]).toString('latin1') : '';
  return { step, body: Buffer.concat(d.chunks).toString('latin1'), after };
}

const WIRE = '5;name=value\r\nhello\r\n1A\r\n, chunked world of bytes!!\r\n0\r\nX-Trailer: yes\r\n\r\nGET /next HTTP/1.1\r\n\r\n';
const BODY = 'hello, chunked world of bytes!!';

describe('ChunkedDecoder', () => {
  it('decodes the same body and leaves the same rest at every split point', () => {
    const wire = Buffer.from(WIRE, 'latin1');
    for (let i = 0; i <= wire.length; i++) {
      for (const j of [i, Math.min(wire.length, i + 1), Math.min(wire.length, i + 7)]) {
        const { step, body, after } = decode([wire.subarray(0, i), wire.subarray(i, j), wire.subarray(j)]);
        expect(step.kind, `split at ${i}/${j}`).toBe('done');
        expect(body).toBe(BODY);
        // What follows the body is not part of it: it is handed back, to the byte.
        expect(after).toBe('GET /next HTTP/1.1\r\n\r\n');
      }
    }
  });

  it('decodes a byte at a time', () => {
    const { step, body } = decode([...Buffer.from(WIRE, 'latin1')].map((b) => Buffer.from([b])));
    expect(step.kind).toBe('done');
    expect(body).toBe(BODY);
  });

  it.each([
    ['a size that is not hex', 'zz\r\nabc\r\n0\r\n\r\n'],
    ['a size with 0x', '0x3\r\nabc\r\n0\r\n\r\n'],
    ['a negative size', '-3\r\nabc\r\n0\r\n\r\n'],
    ['a size too large to be real', 'fffffffffffffffff3\r\nabc\r\n0\r\n\r\n'],
    ['an empty size line', '\r\nabc\r\n0\r\n\r\n'],
    ['a space before the size', ' 3\r\nabc\r\n0\r\n\r\n'],
    ['bare LF line ends', '3\nabc\n0\n\n'],
    ['a bare CR in the size line', '3\rx\r\nabc\r\n0\r\n\r\n'],
    ['data longer than its size', '3\r\nabcdef\r\n0\r\n\r\n'],
    ['no CRLF after the data', '3\r\nabcX\r\n0\r\n\r\n'],
    ['a request line where a trailer field belongs', '0\r\nGET /admin HTTP/1.1\r\n\r\n'],
    ['an over-long chunk extension', `3;${'x'.repeat(5000)}\r\nabc\r\n0\r\n\r\n`],
  ])('refuses %s', (_name, wire) => {
    expect(decode([Buffer.from(wire, 'latin1')]).step.kind).toBe('bad');
  });

  it('stops at the limit as soon as a chunk size says the body would exceed it', () => {
    expect(decode([Buffer.from('4\r\nabcd\r\n8\r\n', 'latin1')], 10).step.kind).toBe('over');
    expect(decode([Buffer.from('4\r\nabcd\r\n6\r\nabcdef\r\n0\r\n\r\n', 'latin1')], 10)).toMatchObject({ step: { kind: 'done' }, body: 'abcdabcdef' });
  });

  it('keeps waiting while the body is incomplete', () => {
    expect(decode([Buffer.from('5\r\nhel', 'latin1')]).step.kind).toBe('more');
    expect(decode([Buffer.from('0\r\nX-A: b\r\n', 'latin1')]).step.kind).toBe('more');
  });
});
