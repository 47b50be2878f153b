import { describe, it, expect } from 'vitest';
import { apacheVerdict, dropContentLengthIfChunked } from '../../../../daemon/engine/testing/apache-emulation.js';

const head = (line: string, headers = 'Host: localhost') => `${line}\r\n${headers}`;

describe('apacheVerdict (Apache 2.4 strict refusals before ModSecurity)', () => {
  it.each([
    ['GET / HTTP/0.9'], ['GET / HTTP/2'], ['GET / 1.1'], ['GET / JUNK/1.0'], ['     GET / HTTP/1.1'],
    ['GET /index.html:80?a=b HTTP/1.1'], ['GET /a#frag HTTP/1.1'], ['GET \\ HTTP/1.1'],
  ])('rejects %s', (line) => {
    expect(apacheVerdict(head(line)).kind).toBe('reject');
  });
  it('rejects bad Host and Content-Length values and bare CRs', () => {
    expect(apacheVerdict(head('GET / HTTP/1.1', 'Host: localhost%00')).kind).toBe('reject');
    expect(apacheVerdict(head('GET / HTTP/1.1', 'Host: a\r\nContent-Length: 3;')).kind).toBe('reject');
    expect(apacheVerdict(head('GET / HTTP/1.1', 'Host: a\r\nX: a\rb')).kind).toBe('reject');
  });
  it('accepts unusual but valid requests and answers a versionless one as HTTP/0.9', () => {
    expect(apacheVerdict(head('TEST / HTTP/3.0')).kind).toBe('accept');
    expect(apacheVerdict(head('CONNECT www.cnn.com:80 HTTP/1.1')).kind).toBe('accept');
    expect(apacheVerdict(head('GET ?x=1 HTTP/1.1')).kind).toBe('accept');
    expect(apacheVerdict(head('GET / ')).kind).toBe('simple');
  });
  it('drops Content-Length when Transfer-Encoding is present', () => {
    expect(dropContentLengthIfChunked([['Content-Length', '7'], ['Transfer-Encoding', 'chunked']])).toEqual([['Transfer-Encoding', 'chunked']]);
  });
});
