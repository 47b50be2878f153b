import { describe, it, expect } from 'vitest';
import { buildFtwRequest, pythonUnicodeEscape } from './ftw-request.js';

describe('buildFtwRequest (the Python ftw runner\'s request building)', () => {
  it('builds the request line, headers and a re-encoded form body with Content-Type and Content-Length', () => {
    const bytes = buildFtwRequest({ method: 'POST', uri: '/', headers: { Host: 'localhost' }, data: 'a=<b c>&empty=&d=1' });
    expect(bytes.toString()).toBe(
      'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 15\r\n\r\na=%3Cb+c%3E&d=1',
    );
  });
  it('leaves already-encoded form data and stop_magic requests alone, and never adds Host', () => {
    expect(buildFtwRequest({ data: 'a=%3C', headers: {} }).toString()).toContain('\r\n\r\na=%3C');
    const raw = buildFtwRequest({ data: ['x', 'y'], stop_magic: true, headers: { 'Content-Type': 'text/plain' } }).toString();
    expect(raw).toBe('GET / HTTP/1.1\r\nContent-Type: text/plain\r\n\r\nx\r\ny');
  });
  it('decodes raw_request escapes like Python unicode_escape and passes encoded_request through', () => {
    expect(pythonUnicodeEscape('GET / HTTP/1.1\\r\\nX: \\x41\\t\\\\').toString('latin1')).toBe('GET / HTTP/1.1\r\nX: A\t\\');
    expect(buildFtwRequest({ encoded_request: Buffer.from('abc').toString('base64') }).toString()).toBe('abc');
  });
});
