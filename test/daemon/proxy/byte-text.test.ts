import { describe, expect, it } from 'vitest';
import { byteText } from '../../../daemon/proxy/byte-text.js';

const bytes = (...b: number[]): string => Buffer.from(b).toString('latin1');

describe('byteText: what the engine reports (one char per byte) as stored text', () => {
  it('decodes UTF-8 sequences', () => {
    expect(byteText(bytes(0x53, 0x65, 0xc3, 0xa1, 0x6e))).toBe('Seán');
    expect(byteText(bytes(0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80))).toBe('€😀');
  });
  it('reads a lone A0-FF byte (the engine decoded %u00e1 to E1) as that code point', () => {
    expect(byteText(bytes(0x53, 0x65, 0xe1, 0x6e))).toBe('Seán');
  });
  it('escapes lone C1 bytes (never text) instead of losing them; an overlong or a surrogate is not decoded', () => {
    expect(byteText(bytes(0x61, 0x85, 0x62))).toBe('a\\x85b');
    expect(byteText(bytes(0xc0, 0xaf))).toBe('\u00c0\u00af');
    expect(byteText(bytes(0xed, 0xa0, 0x80))).toBe('\u00ed\u00a0\\x80');
  });
  it('leaves ASCII and text that is already decoded as it is', () => {
    expect(byteText('<script>')).toBe('<script>');
    expect(byteText('Seán ☃')).toBe('Seán ☃');
  });
});
