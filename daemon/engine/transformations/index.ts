// The transformation registry: lower-cased SecLang name -> function (see ../CONTRACT.md).
// `none` is not here: the engine handles it by clearing the rule's transformation list.
import type { Transformation } from './types.js';
import { base64Decode } from './base64-decode.js';
import { base64DecodeExt } from './base64-decode-ext.js';
import { base64Encode } from './base64-encode.js';
import { cmdLine } from './cmd-line.js';
import { compressWhitespace } from './compress-whitespace.js';
import { cssDecode } from './css-decode.js';
import { escapeSeqDecode } from './escape-seq-decode.js';
import { hexDecode } from './hex-decode.js';
import { hexEncode } from './hex-encode.js';
import { htmlEntityDecode } from './html-entity-decode.js';
import { jsDecode } from './js-decode.js';
import { length } from './length.js';
import { lowercase } from './lowercase.js';
import { md5 } from './md5.js';
import { normalizePath } from './normalize-path.js';
import { normalizePathWin } from './normalize-path-win.js';
import { parityEven7bit } from './parity-even-7bit.js';
import { parityOdd7bit } from './parity-odd-7bit.js';
import { parityZero7bit } from './parity-zero-7bit.js';
import { removeComments } from './remove-comments.js';
import { removeCommentsChar } from './remove-comments-char.js';
import { removeNulls } from './remove-nulls.js';
import { removeWhitespace } from './remove-whitespace.js';
import { replaceComments } from './replace-comments.js';
import { replaceNulls } from './replace-nulls.js';
import { sha1 } from './sha1.js';
import { sqlHexDecode } from './sql-hex-decode.js';
import { trim } from './trim.js';
import { trimLeft } from './trim-left.js';
import { trimRight } from './trim-right.js';
import { uppercase } from './uppercase.js';
import { urlDecode } from './url-decode.js';
import { urlDecodeUni } from './url-decode-uni.js';
import { urlEncode } from './url-encode.js';
import { utf8toUnicode } from './utf8-to-unicode.js';

export type { Transformation } from './types.js';

export const transformations: ReadonlyMap<string, Transformation> = new Map<string, Transformation>([
  ['base64decode', base64Decode],
  ['base64decodeext', base64DecodeExt],
  ['base64encode', base64Encode],
  ['cmdline', cmdLine],
  ['compresswhitespace', compressWhitespace],
  ['cssdecode', cssDecode],
  ['escapeseqdecode', escapeSeqDecode],
  ['hexdecode', hexDecode],
  ['hexencode', hexEncode],
  ['htmlentitydecode', htmlEntityDecode],
  ['jsdecode', jsDecode],
  ['length', length],
  ['lowercase', lowercase],
  ['md5', md5],
  ['normalisepath', normalizePath],
  ['normalizepath', normalizePath],
  ['normalisepathwin', normalizePathWin],
  ['normalizepathwin', normalizePathWin],
  ['parityeven7bit', parityEven7bit],
  ['parityodd7bit', parityOdd7bit],
  ['parityzero7bit', parityZero7bit],
  ['removecomments', removeComments],
  ['removecommentschar', removeCommentsChar],
  ['removenulls', removeNulls],
  ['removewhitespace', removeWhitespace],
  ['replacecomments', replaceComments],
  ['replacenulls', replaceNulls],
  ['sha1', sha1],
  ['sqlhexdecode', sqlHexDecode],
  ['trim', trim],
  ['trimleft', trimLeft],
  ['trimright', trimRight],
  ['uppercase', uppercase],
  ['urldecode', urlDecode],
  ['urldecodeuni', urlDecodeUni],
  ['urlencode', urlEncode],
  ['utf8tounicode', utf8toUnicode],
]);
