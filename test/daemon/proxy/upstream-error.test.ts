// The names the access entry's upstream_error and the daemon log give an origin failure, and the
// daemon log's limit of one line per site a minute (the clock is the test's).
import { describe, expect, it } from 'vitest';
import { upstreamErrorName } from '../../../daemon/proxy/upstream-error.js';
import { OriginFailureLog, type OriginFailure } from '../../../daemon/proxy/origin-failure-log.js';

describe('upstreamErrorName', () => {
  it('is the error code; for undici socket errors the errno underneath', () => {
    expect(upstreamErrorName(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET', cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    expect(upstreamErrorName(reset)).toBe('ECONNRESET');
    expect(upstreamErrorName(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }))).toBe('UND_ERR_SOCKET');
    expect(upstreamErrorName(Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe('UND_ERR_HEADERS_TIMEOUT');
  });

  it('without a code: the error name and the first line of its message, short', () => {
    const parser = Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)\nmore'), { name: 'HTTPParserError' });
    expect(upstreamErrorName(parser)).toBe('HTTPParserError: Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)');
    expect(upstreamErrorName(new TypeError(''))).toBe('TypeError');
    expect(upstreamErrorName(new Error('x'.repeat(500)))).toHaveLength(160);
    expect(upstreamErrorName('a string')).toBe('string');
    expect(upstreamErrorName({ code: 'X'.repeat(500) })).toHaveLength(64);
  });
});

describe('OriginFailureLog', () => {
  const failure = (siteId: number, requestId: string): OriginFailure => ({
    siteId, domain: `s${siteId}.test`, origin: 'http://127.0.0.1:9', reason: 'ECONNREFUSED', status: 502, requestId,
  });

  it('writes one line per site a minute, then says how many it left out', () => {
    const lines: string[] = [];
    let now = 1_000_000;
    const log = new OriginFailureLog((line) => lines.push(line), () => now);
    log.note(failure(1, 'r1'));
    log.note(failure(1, 'r2'));
    log.note(failure(2, 'r3'));
    now += 59_999;
    log.note(failure(1, 'r4'));
    expect(lines).toEqual([
      'edge: origin http://127.0.0.1:9 of site s1.test failed: ECONNREFUSED, answered 502 to request r1',
      'edge: origin http://127.0.0.1:9 of site s2.test failed: ECONNREFUSED, answered 502 to request r3',
    ]);
    now += 1;
    log.note(failure(1, 'r5'));
    expect(lines[2]).toBe('edge: origin http://127.0.0.1:9 of site s1.test failed: ECONNREFUSED, answered 502 to request r5 (2 more failures of this site since the last line)');
  });
});
