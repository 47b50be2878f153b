// For each transformation that usually has nothing to do: the bytes without which it returns
// its input unchanged. Most values a rule looks at (headers, plain arguments) hold none of a
// decoder's trigger bytes, so the engine summarises each value's bytes once and skips those
// calls with one AND (rules/byte-classes.ts). A transformation absent here always runs.
//
// Every set must be sound: "no trigger byte in the input" implies "output equals input"
// (test/daemon/engine/transformations/trigger-bytes.test.ts checks each one with random inputs).
import type { Transformation } from './types.js';
import { cmdLine } from './cmd-line.js';
import { compressWhitespace } from './compress-whitespace.js';
import { cssDecode } from './css-decode.js';
import { escapeSeqDecode } from './escape-seq-decode.js';
import { htmlEntityDecode } from './html-entity-decode.js';
import { jsDecode } from './js-decode.js';
import { lowercase } from './lowercase.js';
import { normalizePath } from './normalize-path.js';
import { normalizePathWin } from './normalize-path-win.js';
import { parityZero7bit } from './parity-zero-7bit.js';
import { removeComments } from './remove-comments.js';
import { removeCommentsChar } from './remove-comments-char.js';
import { removeNulls } from './remove-nulls.js';
import { removeWhitespace } from './remove-whitespace.js';
import { replaceComments } from './replace-comments.js';
import { replaceNulls } from './replace-nulls.js';
import { sqlHexDecode } from './sql-hex-decode.js';
import { trim } from './trim.js';
import { trimLeft } from './trim-left.js';
import { trimRight } from './trim-right.js';
import { uppercase } from './uppercase.js';
import { urlDecode } from './url-decode.js';
import { urlDecodeUni } from './url-decode-uni.js';
import { utf8toUnicode } from './utf8-to-unicode.js';

function range(from: number, to: number): string {
  let out = '';
  for (let c = from; c <= to; c++) out += String.fromCharCode(c);
  return out;
}

const UPPER = range(0x41, 0x5a);
const LOWER = range(0x61, 0x7a);
/** C isspace(): \t \n \v \f \r and space. */
const SPACE = '\t\n\v\f\r ';
const HIGH = range(0x80, 0xff);

export const triggerBytes: ReadonlyMap<Transformation, string> = new Map<Transformation, string>([
  [lowercase, UPPER],
  [uppercase, LOWER],
  [urlDecode, '%+'],
  [urlDecodeUni, '%+'],
  [htmlEntityDecode, '&'],
  [jsDecode, '\\'],
  [cssDecode, '\\'],
  [escapeSeqDecode, '\\'],
  [removeNulls, '\0'],
  [replaceNulls, '\0'],
  [removeWhitespace, SPACE + '\xa0'],
  // A single plain space between other bytes stays, but a space is the cheapest sound trigger.
  [compressWhitespace, SPACE + '\xa0'],
  // Comments start with "/*", "<!--", "--" or "#": each needs '*', '-' or '#'.
  [removeComments, '*-#'],
  [replaceComments, '*'],
  [removeCommentsChar, '*-#'],
  [cmdLine, `\0"'\\^,;\t\r\n ${UPPER}`],
  // "//", "./", "/.", a leading or trailing '.': each needs '/' or '.'.
  [normalizePath, '/.'],
  [normalizePathWin, '/.\\'],
  [utf8toUnicode, '\0' + HIGH],
  [trim, SPACE],
  [trimLeft, SPACE],
  [trimRight, SPACE],
  // Only "0x"/"0X" followed by hex digits is decoded; a NUL ends the C string.
  [sqlHexDecode, '\0xX'],
  [parityZero7bit, HIGH],
]);
