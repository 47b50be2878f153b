// t:urlEncode: ModSecurity's url_encode(): space -> '+', keeps [A-Za-z0-9*], %xx (lower-case) otherwise.
import type { Transformation, TransformationDefinition } from './types.js';

const KEEP = new Uint8Array(256);
for (let c = 0; c < 256; c++) KEEP[c] = c === 42 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
const HEX = '0123456789abcdef';

export const urlEncode: Transformation = (input) => {
  let i = 0;
  while (i < input.length && KEEP[input.charCodeAt(i)]) i++;
  if (i === input.length) return input;
  const parts: string[] = [input.slice(0, i)];
  for (; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (KEEP[c]) parts.push(input[i]);
    else if (c === 0x20) parts.push('+');
    else parts.push('%' + HEX[c >> 4] + HEX[c & 15]);
  }
  return parts.join('');
};

export const urlEncodeTransformation: TransformationDefinition = { apply: urlEncode, triggerBytes: null };
