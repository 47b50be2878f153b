// The transformation registry: lower-cased SecLang name -> the transformation's entry (function
// and trigger bytes, declared in its own file; see ../CONTRACT.md).
// `none` is not here: the engine handles it by clearing the rule's transformation list.
import type { TransformationDefinition } from './types.js';
import { base64DecodeTransformation } from './base64-decode.js';
import { base64DecodeExtTransformation } from './base64-decode-ext.js';
import { base64EncodeTransformation } from './base64-encode.js';
import { cmdLineTransformation } from './cmd-line.js';
import { compressWhitespaceTransformation } from './compress-whitespace.js';
import { cssDecodeTransformation } from './css-decode.js';
import { escapeSeqDecodeTransformation } from './escape-seq-decode.js';
import { hexDecodeTransformation } from './hex-decode.js';
import { hexEncodeTransformation } from './hex-encode.js';
import { htmlEntityDecodeTransformation } from './html-entity-decode.js';
import { jsDecodeTransformation } from './js-decode.js';
import { lengthTransformation } from './length.js';
import { lowercaseTransformation } from './lowercase.js';
import { md5Transformation } from './md5.js';
import { normalizePathTransformation } from './normalize-path.js';
import { normalizePathWinTransformation } from './normalize-path-win.js';
import { parityEven7bitTransformation } from './parity-even-7bit.js';
import { parityOdd7bitTransformation } from './parity-odd-7bit.js';
import { parityZero7bitTransformation } from './parity-zero-7bit.js';
import { removeCommentsTransformation } from './remove-comments.js';
import { removeCommentsCharTransformation } from './remove-comments-char.js';
import { removeNullsTransformation } from './remove-nulls.js';
import { removeWhitespaceTransformation } from './remove-whitespace.js';
import { replaceCommentsTransformation } from './replace-comments.js';
import { replaceNullsTransformation } from './replace-nulls.js';
import { sha1Transformation } from './sha1.js';
import { sqlHexDecodeTransformation } from './sql-hex-decode.js';
import { trimTransformation } from './trim.js';
import { trimLeftTransformation } from './trim-left.js';
import { trimRightTransformation } from './trim-right.js';
import { uppercaseTransformation } from './uppercase.js';
import { urlDecodeTransformation } from './url-decode.js';
import { urlDecodeUniTransformation } from './url-decode-uni.js';
import { urlEncodeTransformation } from './url-encode.js';
import { utf8toUnicodeTransformation } from './utf8-to-unicode.js';

export type { Transformation, TransformationDefinition } from './types.js';

export const transformations: ReadonlyMap<string, TransformationDefinition> = new Map<string, TransformationDefinition>([
  ['base64decode', base64DecodeTransformation],
  ['base64decodeext', base64DecodeExtTransformation],
  ['base64encode', base64EncodeTransformation],
  ['cmdline', cmdLineTransformation],
  ['compresswhitespace', compressWhitespaceTransformation],
  ['cssdecode', cssDecodeTransformation],
  ['escapeseqdecode', escapeSeqDecodeTransformation],
  ['hexdecode', hexDecodeTransformation],
  ['hexencode', hexEncodeTransformation],
  ['htmlentitydecode', htmlEntityDecodeTransformation],
  ['jsdecode', jsDecodeTransformation],
  ['length', lengthTransformation],
  ['lowercase', lowercaseTransformation],
  ['md5', md5Transformation],
  ['normalisepath', normalizePathTransformation],
  ['normalizepath', normalizePathTransformation],
  ['normalisepathwin', normalizePathWinTransformation],
  ['normalizepathwin', normalizePathWinTransformation],
  ['parityeven7bit', parityEven7bitTransformation],
  ['parityodd7bit', parityOdd7bitTransformation],
  ['parityzero7bit', parityZero7bitTransformation],
  ['removecomments', removeCommentsTransformation],
  ['removecommentschar', removeCommentsCharTransformation],
  ['removenulls', removeNullsTransformation],
  ['removewhitespace', removeWhitespaceTransformation],
  ['replacecomments', replaceCommentsTransformation],
  ['replacenulls', replaceNullsTransformation],
  ['sha1', sha1Transformation],
  ['sqlhexdecode', sqlHexDecodeTransformation],
  ['trim', trimTransformation],
  ['trimleft', trimLeftTransformation],
  ['trimright', trimRightTransformation],
  ['uppercase', uppercaseTransformation],
  ['urldecode', urlDecodeTransformation],
  ['urldecodeuni', urlDecodeUniTransformation],
  ['urlencode', urlEncodeTransformation],
  ['utf8tounicode', utf8toUnicodeTransformation],
]);
