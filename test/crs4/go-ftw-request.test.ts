// The bytes go-ftw 2.3 would send, checked on the cases CRS's tests depend on.
import { describe, it, expect } from 'vitest';
import { buildGoFtwRequest, goQueryEscape, goQueryUnescape } from './go-ftw-request.js';
import { expandGoTemplate } from './go-ftw-template.js';
import type { GoFtwInput } from './go-ftw-suite.js';

const input = (over: Partial<GoFtwInput>): GoFtwInput => ({ headers: [], autocompleteHeaders: true, ...over });

describe('buildGoFtwRequest', () => {
  it('sorts the YAML headers by name, then appends Content-Type, Connection and Content-Length', () => {
    const bytes = buildGoFtwRequest(input({ method: 'POST', uri: '/x', headers: [['User-Agent', 'a'], ['Host', 'localhost']], data: 'a=b c' }));
    expect(bytes.toString()).toBe(
      'POST /x HTTP/1.1\r\nHost: localhost\r\nUser-Agent: a\r\nContent-Type: application/x-www-form-urlencoded\r\nConnection: close\r\nContent-Length: 5\r\n\r\na=b+c',
    );
  });

  it('leaves form data alone when unescaping changes it, and drops a trailing & when it re-encodes', () => {
    expect(buildGoFtwRequest(input({ data: 'a=%41+b' })).toString()).toMatch(/\r\n\r\na=%41\+b$/);
    expect(buildGoFtwRequest(input({ data: "x=1'&" })).toString()).toMatch(/\r\n\r\nx=1%27$/);
  });

  it('adds an empty Content-Length for POST without data, and nothing without autocompletion', () => {
    expect(buildGoFtwRequest(input({ method: 'POST' })).toString()).toBe('POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    expect(buildGoFtwRequest(input({ method: 'POST', data: 'a b', autocompleteHeaders: false })).toString()).toBe('POST / HTTP/1.1\r\n\r\na b');
  });

  it('turns LF into CRLF in a multipart body even without autocompletion', () => {
    const bytes = buildGoFtwRequest(input({ headers: [['Content-Type', 'multipart/form-data; boundary=b']], data: '--b\nx\n--b--\n', autocompleteHeaders: false }));
    expect(bytes.toString()).toMatch(/\r\n\r\n--b\r\nx\r\n--b--\r\n$/);
  });

  it('sends an encoded_request verbatim', () => {
    expect(buildGoFtwRequest(input({ encodedRequest: Buffer.from('GET / HTTP/1.0\r\n\r\n').toString('base64') })).toString()).toBe('GET / HTTP/1.0\r\n\r\n');
  });
});

describe('go url helpers and templates', () => {
  it('escape and unescape like Go', () => {
    expect(goQueryEscape("a b/é~")).toBe('a+b%2F%C3%A9~');
    expect(goQueryUnescape('%zz')).toBeUndefined();
    expect(goQueryUnescape('a+b%2F')).toBe('a b/');
  });

  it("expands sprig's repeat and refuses other actions", () => {
    expect(expandGoTemplate('<{{ "ab" | repeat 3 }}>')).toBe('<ababab>');
    expect(() => expandGoTemplate('{{ .Foo }}')).toThrow(/not supported/);
  });
});
