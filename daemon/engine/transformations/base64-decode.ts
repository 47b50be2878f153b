// t:base64Decode: APR's apr_base64_decode(): decodes the leading run of base64 alphabet characters
// and stops at the first other byte ('=' included); the input is a C string, so a NUL ends it too.
// A final group of 2 or 3 characters gives 1 or 2 bytes and a lone final character is ignored.
// Node's native decoder does the same with an unpadded run: long runs go to it, short ones are
// decoded here (cheaper than the native call's fixed cost).
import type { Transformation, TransformationDefinition } from './types.js';
import { fromCodes, scratch } from './byte-string.js';

const SIX = new Int8Array(256).fill(64);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((ch, i) => { SIX[ch.charCodeAt(0)] = i; });
const NATIVE_FROM = 256;

export const base64Decode: Transformation = (input) => {
  let run = 0;
  while (run < input.length && SIX[input.charCodeAt(run) & 0xff] <= 63 && input.charCodeAt(run) < 0x100) run++;
  if (run >= NATIVE_FROM) return Buffer.from(run === input.length ? input : input.slice(0, run), 'base64').toString('latin1');
  const out = scratch(Math.floor((run + 3) / 4) * 3);
  let o = 0, i = 0, left = run;
  while (left > 4) {
    const a = SIX[input.charCodeAt(i)], b = SIX[input.charCodeAt(i + 1)], c = SIX[input.charCodeAt(i + 2)], d = SIX[input.charCodeAt(i + 3)];
    out[o++] = (a << 2) | (b >> 4);
    out[o++] = (b << 4) | (c >> 2);
    out[o++] = (c << 6) | d;
    i += 4;
    left -= 4;
  }
  const a = SIX[input.charCodeAt(i)], b = SIX[input.charCodeAt(i + 1)], c = SIX[input.charCodeAt(i + 2)], d = SIX[input.charCodeAt(i + 3)];
  if (left > 1) out[o++] = (a << 2) | (b >> 4);
  if (left > 2) out[o++] = (b << 4) | (c >> 2);
  if (left > 3) out[o++] = (c << 6) | d;
  return fromCodes(out, o);
};

export const base64DecodeTransformation: TransformationDefinition = { apply: base64Decode, triggerBytes: null };
