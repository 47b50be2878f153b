import { describe, it, expect } from 'vitest';
import { parseRawHttpRequest } from './raw-http.js';

describe('parseRawHttpRequest', () => {
  it('parses methods and targets a strict parser refuses, with the body by Content-Length', () => {
    const raw = Buffer.from('TEST ?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcdef');
    const parsed = parseRawHttpRequest(raw)!;
    expect(parsed.request).toMatchObject({ method: 'TEST', uri: '?x=1', protocol: 'HTTP/1.1', headers: [['Host', 'a'], ['Content-Length', '3']] });
    expect(parsed.request.body?.toString()).toBe('abc');
    expect(parsed.simple).toBe(false);
  });
  it('decodes chunked bodies, folds continuation lines, accepts LF line ends', () => {
    const raw = Buffer.from('POST / HTTP/1.1\nX-A: one\n  two\nTransfer-Encoding: chunked\n\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n');
    const parsed = parseRawHttpRequest(raw)!;
    expect(parsed.request.headers[0]).toEqual(['X-A', 'one two']);
    expect(parsed.request.body?.toString()).toBe('abcde');
  });
  it('marks a request line without a version as a simple request', () => {
    expect(parseRawHttpRequest(Buffer.from('GET /\r\n\r\n'))?.simple).toBe(true);
    expect(parseRawHttpRequest(Buffer.from('\r\n\r\n'))).toBeUndefined();
  });
});
