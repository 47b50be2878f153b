// t:base64DecodeExt: ModSecurity's decode_base64_ext(): skips bytes outside the alphabet, tolerates
// padding anywhere, but yields nothing when a lone '=' follows exactly one character of a quantum.
// Stops at NUL (C string).
import type { Transformation, TransformationDefinition } from './types.js';
import { fromCodes, scratch } from './byte-string.js';

const REVERSE = new Int8Array(256).fill(-2);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((ch, i) => { REVERSE[ch.charCodeAt(0)] = i; });

export const base64DecodeExt: Transformation = (input) => {
  const out = scratch(input.length);
  let i = 0, j = 0;
  for (let k = 0; k < input.length; k++) {
    const ch = input.charCodeAt(k);
    if (ch === 0) break;
    if (ch === 0x3d) {
      if (input.charCodeAt(k + 1) !== 0x3d && i % 4 === 1) return '';
      continue;
    }
    const v = REVERSE[ch];
    if (v < 0) continue;
    switch (i % 4) {
      case 0: out[j] = v << 2; break;
      case 1: out[j++] |= v >> 4; out[j] = (v & 0x0f) << 4; break;
      case 2: out[j++] |= v >> 2; out[j] = (v & 0x03) << 6; break;
      case 3: out[j++] |= v; break;
    }
    i++;
  }
  return fromCodes(out, j);
};

export const base64DecodeExtTransformation: TransformationDefinition = { apply: base64DecodeExt, triggerBytes: null };
