/**
 * detectXSS through the public entry point. libinjection ships no XSS vectors at the pinned
 * commit, so these pin the algorithm's documented behaviour, including its byte-level quirks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectXSS } from '../../../../daemon/engine/libinjection/index.js';
import { isXssInContext } from '../../../../daemon/engine/libinjection/xss.js';

describe('detectXSS', () => {
  it.each([
    ['a black-listed tag', '<script>alert(1)</script>'],
    ['an iframe', '<iframe src=x>'],
    ['any svg* tag', '<svg/onload=alert(1)>'],
    ['an event handler attribute', '<img src=x onerror=alert(1)>'],
    ['an event name followed by more letters', '<b onclickme=1>'],
    ['a javascript: URL', '<a href="javascript:alert(1)">x</a>'],
    ['a URL scheme hidden by a numeric entity and leading space', '<a href=" &#106;avascript:alert(1)">'],
    ['a hex entity', '<a href="&#x6A;avascript:x">'],
    ['a data: URL', '<object data="data:text/html;base64,PHN2Zz4=">'],
    ['a style attribute', '<div style="color:red">'],
    ['a DOCTYPE', '<!DOCTYPE html>'],
    ['an IE conditional comment', '<!--[if IE]><b>x</b><![endif]-->'],
    ['a backtick in a comment (IE ends tags there)', '<!-- ` -->'],
    ['an attribute context (unquoted)', 'onerror=alert(1)'],
    ['an attribute context (single quote)', "' onmouseover='alert(1)"],
    ['an attribute context (double quote)', 'x" onclick="y'],
    ['NULs inside a tag name, which old browsers ignore', '<scr\x00ipt>'],
    ['xmlns attributes', '<x xmlns:y="urn:z">'],
    ['SVG attributeName naming a handler', '<set attributeName="onload" to="alert(1)">'],
  ])('flags %s', (_what, input) => {
    expect(detectXSS(input)).toBe(true);
  });

  it.each([
    ['plain text', 'hello world'],
    ['a harmless link', '<a href="http://example.com/">x</a>'],
    ['entities in text', '<p>Terms &amp; conditions</p>'],
    ['an on* attribute that is no event', '<x onfoo=1>'],
    ['"on" words in prose', 'carry on regardless, online or not'],
    ['an email address', 'john.smith@example.com'],
    ['a data: URL outside an attribute', 'data:text/html,foo'],
    // the reference compares (char) of a decoded entity: 0x16A's low byte is 'j' but it is not upper-cased
    ['an entity above 0xFF', '<a href="&#x16A;avascript:x">'],
    // the reference reads byte 0xFF as a signed char, -1, which is its end-of-input mark
    ['byte 0xFF where an attribute name would start', '<a \xffonerror=alert(1)>'],
  ])('lets %s pass', (_what, input) => {
    expect(detectXSS(input)).toBe(false);
  });

  it('does not throw on chars above 0xFF (outside the byte-string contract)', () => {
    expect(() => detectXSS('<a \u0100href="&#x6A;\u2028avascript:x" on\u0131oad=1>')).not.toThrow();
    expect(detectXSS('<scr\u0100ipt>')).toBe(false);
  });

  it("flags nothing without '<' or '=' in any of the five contexts (the shortcut is exact)", () => {
    const noTagNoEquals = fc
      .array(fc.constantFrom('>', '/', '!', '--', '?', '%', '"', "'", '`', ' ', '\x00', '\xff', 'a', 'on', 'onload', 'href', 'style', 'script', '&#', 'x6A;', 'javascript:', 'DOCTYPE'), { maxLength: 24 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(noTagNoEquals, (input) => {
        for (let context = 0; context < 5; context++) expect(isXssInContext(input, context)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws and answers the same for the same input', () => {
    const byteString = fc.uint8Array({ maxLength: 80 }).map((b) => Buffer.from(b).toString('latin1'));
    const htmlish = fc
      .array(fc.constantFrom('<', '>', '/', '!', '--', '?', '%', '=', '"', "'", '`', ' ', '\x00', 'a', 'on', 'load', 'href', 'script', '&#', 'x6A;', 'javascript:', '[CDATA['), { maxLength: 20 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(byteString, htmlish), (input) => {
        const first = detectXSS(input);
        expect(typeof first).toBe('boolean');
        expect(detectXSS(input)).toBe(first);
      }),
      { numRuns: 3000 },
    );
  });
});
