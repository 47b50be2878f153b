// t:base64Decode: APR's apr_base64_decode(): decodes the leading run of base64 alphabet characters
// and stops at the first other byte ('=' included); the input is a C string, so a NUL ends it too.
import type { Transformation } from './types.js';
import { fromCodes } from './byte-string.js';

const SIX = new Int8Array(256).fill(64);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((ch, i) => { SIX[ch.charCodeAt(0)] = i; });

export const base64Decode: Transformation = (input) => {
  let run = 0;
  while (run < input.length && SIX[input.charCodeAt(run)] <= 63) run++;
  const out = new Uint8Array(Math.floor((run + 3) / 4) * 3);
  let o = 0, i = 0, left = run;
  const six = (k: number) => SIX[input.charCodeAt(k)];
  while (left > 4) {
    out[o++] = (six(i) << 2) | (six(i + 1) >> 4);
    out[o++] = (six(i + 1) << 4) | (six(i + 2) >> 2);
    out[o++] = (six(i + 2) << 6) | six(i + 3);
    i += 4;
    left -= 4;
  }
  // A single leftover character carries no full byte; APR ignores it.
  if (left > 1) out[o++] = (six(i) << 2) | (six(i + 1) >> 4);
  if (left > 2) out[o++] = (six(i + 1) << 4) | (six(i + 2) >> 2);
  if (left > 3) out[o++] = (six(i + 2) << 6) | six(i + 3);
  return fromCodes(out, o);
};
