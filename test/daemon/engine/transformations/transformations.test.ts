// Table-driven: each row is [input, expected output] as ModSecurity v2.9's C implementation gives it.
import { describe, expect, it } from 'vitest';
import { transformations } from '../../../../daemon/engine/transformations/index.js';

const tables: Record<string, Array<[string, string]>> = {
  lowercase: [['ABC def', 'abc def'], ['\xc0\xc9X', '\xc0\xc9x'], ['', ''], ['already', 'already']],
  uppercase: [['abc DEF', 'ABC DEF'], ['\xe0x', '\xe0X']],
  trimleft: [[' \t\n\v\f\rabc ', 'abc '], ['\xa0abc', '\xa0abc'], ['   ', '']],
  trimright: [[' abc \t\r\n', ' abc'], ['abc\xa0', 'abc\xa0']],
  trim: [['  a b  ', 'a b'], ['', ''], [' \n ', '']],
  compresswhitespace: [['a  \t\n b', 'a b'], ['a\xa0\xa0b', 'a b'], ['  a', ' a'], ['a  ', 'a '], ['a b', 'a b'], ['a\tb', 'a b']],
  removewhitespace: [[' a\tb\nc\xa0d ', 'abcd'], ['abc', 'abc']],
  removenulls: [['a\0b\0', 'ab'], ['ab', 'ab']],
  replacenulls: [['a\0b\0', 'a b '], ['ab', 'ab']],
  length: [['', '0'], ['abc', '3'], ['\xff\xfe', '2']],
  md5: [['', Buffer.from('d41d8cd98f00b204e9800998ecf8427e', 'hex').toString('latin1')]],
  sha1: [['abc', Buffer.from('a9993e364706816aba3e25717850c26c9cd0d89d', 'hex').toString('latin1')]],
  hexencode: [['a\xff\0', '61ff00'], ['', '']],
  hexdecode: [['414243', 'ABC'], ['4142f', 'AB'], ['zz', 'S'], ['', ''], ['6', '']],
  base64encode: [['ab\xff', 'YWL/'], ['', '']],
  base64decode: [
    ['VGVzdA==', 'Test'],
    ['VGVzdA', 'Test'],
    ['VGV zdA==', 'Te'],
    ['VGVzdCBjYXNl!!', 'Test case'],
    ['V', ''],
    ['VGVz\0dA==', 'Tes'],
  ],
  base64decodeext: [
    ['VGVzdA==', 'Test'],
    ['VG Vz.dA==', 'Test'],
    ['VG=Vz', 'Tes'],
    ['V=Vz', ''],
    ['VGVz\0dA==', 'Tes'],
  ],
  urlencode: [['a b*c/d~\xff', 'a+b*c%2fd%7e%ff'], ['abc', 'abc']],
  urldecode: [
    ['a%41+b', 'aA b'],
    ['%zz%4', '%zz%4'],
    ['%', '%'],
    ['%4g', '%4g'],
    ['%u0041', '%u0041'],
    ['100%25', '100%'],
  ],
  urldecodeuni: [
    ['%u0041%41+', 'AA '],
    ['%uff1c', '<'], // full-width '<' -> 0x1c + 0x20
    ['%uFF5E', '~'],
    ['%uff5f', '_'], // 0x5f is outside the full-width fold
    ['%u4e2d', '-'],
    ['%u00e9', '\xe9'],
    ['%uzz41', '%uzz41'],
    ['%u004', '%u004'],
    ['%U0041', 'A'],
    ['%', '%'],
    ['%%41', '%A'],
  ],
  jsdecode: [
    ['\\u0041\\x42\\103', 'ABC'],
    ['\\uff1c', '<'],
    ['\\n\\t\\r\\a\\b\\f\\v', '\n\t\r\x07\x08\x0c\x0b'],
    ['\\\\\\\'\\"\\?\\z', '\\\'"?z'],
    ['\\477', "'7"],
    ['\\377', '\xff'],
    ['\\1x', '\x01x'],
    ['\\u00', 'u00'],
    ['\\x4', 'x4'],
    ['abc\\', 'abc\\'],
  ],
  escapeseqdecode: [
    ['\\x41\\X42\\103', 'ABC'],
    ['\\n\\?\\\'\\"\\\\', '\n?\'"\\'],
    ['\\777', '\xff'],
    ['\\q', 'q'],
    ['\\x4z', 'x4z'],
    ['abc\\', 'abc\\'],
  ],
  htmlentitydecode: [
    ['&lt;&GT;&quot;&amp;&nbsp;', '<>"&\xa0'],
    ['&#65;&#x42;&#X43', 'ABC'],
    ['&#x41x', 'Ax'],
    ['&apos;&copy;', '&apos;&copy;'],
    ['&#;&#x;&#', '&#;&#x;&#'],
    ['&', '&'],
    ['&&lt', '&<'],
    ['&#256;', '\0'],
    ['&#99999999999999999999;', '\xff'],
    ['&#xffffffffffffffffff', '\xff'],
    ['&ltx;', '&ltx;'],
  ],
  cssdecode: [
    ['\\41\\42 C', 'ABC'],
    ['\\0041B', '\x1b'], // five digits: the last two bytes, "1B"
    ['\\0041', 'A'],
    ['\\ff1c', '<'],
    ['\\00ff1c', '<'],
    ['\\1ff1c', '\x1c'],
    ['\\e9', '\xe9'],
    ['a\\\nb', 'ab'],
    ['\\z\\', 'z'],
    ['\\4', '\x04'],
    ['\\123456789', '\x5678' + '9'],
  ],
  cmdline: [
    ['C:\\WINDOWS\\system32', 'c:windowssystem32'],
    ['cat  /etc/passwd', 'cat/etc/passwd'],
    ['w"h"o^a\'mi', 'whoami'],
    ['a, ;b', 'a b'],
    ['echo (x)', 'echo(x)'],
    ['ab\0cd', 'ab'],
  ],
  removecomments: [
    ['a/*x*/b', 'ab'],
    ['a<!--x-->b', 'ab'],
    ['a/*x', 'a '],
    ['a--b', 'a'],
    ['a#b', 'a'],
    ['ab/*c*/', 'ab\0'],
    ['x/**//**/y', 'x/**/y'], // the byte after a comment's end is copied unexamined
  ],
  removecommentschar: [['a/*b*/c<!--d-->e--f#g', 'abcdefg'], ['abc', 'abc']],
  replacecomments: [['a/*x*/b', 'a b'], ['a/*x', 'a '], ['a*/b', 'a*/b'], ['/**/x/* */', ' x ']],
  sqlhexdecode: [
    ['0x414243', 'ABC'],
    ['0X41zz', 'Azz'],
    ['0x4', '0x4'],
    ['a0xg1', 'a0xg1'],
    ['0x41\0ff', 'A'],
    ['0x414', 'A4'],
  ],
  utf8tounicode: [
    ['abc', 'abc'],
    ['\xc3\xa9', '%u00e9'],
    ['\xe4\xb8\xad', '%u4e2d'],
    ['\xf0\x9f\x98\x80', '%u1f600'],
    ['\xc3(', '('],
    ['\xc0\xaf', '%u002f\xc0'],
    ['\xed\xa0\x80', '%ud800\xed'],
    ['\x80a', '\x80a'],
    ['a\0b', 'ab'],
  ],
  normalizepath: [
    ['/a/b/../c', '/a/c'],
    ['/a/./b', '/a/b'],
    ['/a//b', '/a/b'],
    ['a/../../b', '../b'],
    ['../../etc/passwd', '../../etc/passwd'],
    ['/../etc', '/etc'],
    ['/a/b/', '/a/b/'],
    ['/a/b/..', '/a'],
    ['./a', 'a'],
    ['/a/.', '/a'],
    ['a\\..\\b', 'a\\..\\b'],
    ['', ''],
    ['/', '/'],
  ],
  normalizepathwin: [
    ['C:\\a\\..\\b', 'C:/b'],
    ['\\a\\\\b\\.\\c', '/a/b/c'],
  ],
  parityeven7bit: [['\x01\x03\x81', '\x81\x03\x01']],
  parityodd7bit: [['\x01\x03\x81', '\x01\x83\x81']],
  parityzero7bit: [['\x81\xff\x41', '\x01\x7f\x41']],
};

describe('transformations: ModSecurity v2 behaviour', () => {
  for (const [name, rows] of Object.entries(tables)) {
    describe(name, () => {
      const fn = transformations.get(name)!;
      it.each(rows)('%j -> %j', (input, expected) => {
        expect(fn).toBeTypeOf('function');
        expect(fn(input)).toBe(expected);
      });
    });
  }
});

describe('transformation registry', () => {
  it('has every transformation CRS uses, British and American spellings', () => {
    const crs = ['base64decode', 'cmdline', 'compresswhitespace', 'cssdecode', 'hexencode', 'htmlentitydecode', 'jsdecode',
      'length', 'lowercase', 'normalisepath', 'normalizepath', 'normalizepathwin', 'normalisepathwin', 'removenulls',
      'removewhitespace', 'replacecomments', 'sha1', 'urldecode', 'urldecodeuni', 'utf8tounicode', 'base64decodeext',
      'escapeseqdecode', 'hexdecode', 'md5', 'removecomments', 'removecommentschar', 'sqlhexdecode', 'trim', 'trimleft',
      'trimright', 'uppercase', 'urlencode', 'base64encode', 'replacenulls', 'parityeven7bit', 'parityodd7bit', 'parityzero7bit'];
    for (const name of crs) expect(transformations.has(name), name).toBe(true);
    expect(transformations.has('none')).toBe(false);
  });
  it('keeps every output a byte string', () => {
    const input = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('') + '%u4e2d\\u4e2d&#x4e2d;\\4e2d';
    for (const [name, fn] of transformations) {
      const out = fn(input);
      for (let i = 0; i < out.length; i++) expect(out.charCodeAt(i), name).toBeLessThan(256);
    }
  });
});
