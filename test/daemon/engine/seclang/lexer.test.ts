import { describe, it, expect } from 'vitest';
import { lexConfig } from '../../../../daemon/engine/seclang/lexer.js';
import { splitConfigWords } from '../../../../daemon/engine/seclang/words.js';

describe('splitConfigWords (Apache ap_getword_conf)', () => {
  it('splits quoted and bare words', () => {
    expect(splitConfigWords(` ARGS "@rx a b" 'id:1,pass'`)).toEqual(['ARGS', '@rx a b', 'id:1,pass']);
  });
  it('collapses doubled backslashes and escaped quotes, keeps other backslashes', () => {
    expect(splitConfigWords(String.raw`"@rx [\\\\/]\d \"x\""`)).toEqual([String.raw`@rx [\\/]\d "x"`]);
    expect(splitConfigWords(String.raw`a\\b a\b`)).toEqual([String.raw`a\b`, String.raw`a\b`]);
  });
  // Apache would keep an unterminated quote to the end of the line; a typo must not load as
  // something else, so it is refused, with the file and line from lexConfig.
  it('refuses an unterminated quote', () => {
    expect(() => splitConfigWords(`"abc`)).toThrow(/unterminated "/);
    expect(() => lexConfig(`# x\nSecRule ARGS "@rx a" 'id:1,pass`, 'f.conf')).toThrow(/^f\.conf:2: unterminated ': the quote opened here is never closed$/);
  });
});

describe('lexConfig', () => {
  it('joins continuation lines, keeps the first line number, skips comments', () => {
    const text = ['# comment', 'SecRule ARGS "@rx x" \\', '    "id:1,\\', '    pass"', '', '  SecMarker END'].join('\n');
    const d = lexConfig(text, 'f.conf');
    expect(d).toEqual([
      { name: 'SecRule', args: ['ARGS', '@rx x', 'id:1,    pass'], file: 'f.conf', line: 2 },
      { name: 'SecMarker', args: ['END'], file: 'f.conf', line: 6 },
    ]);
  });
  it('treats a doubled backslash at the end of a line as a literal, not a continuation', () => {
    const d = lexConfig('SecMarker a\\\\\nSecMarker b', 'f');
    expect(d.map((x) => x.args[0])).toEqual(['a\\', 'b']);
  });
  it('handles CRLF line ends', () => {
    expect(lexConfig('SecMarker a\\\r\nb\r\n', 'f')[0].args).toEqual(['ab']);
  });
});
