// @validateByteRange: matches when the input holds a byte outside the allowed list, e.g.
// "1-255" or "9,10,13,32-126". Values are read with atoi() like ModSecurity; out-of-range values
// and reversed ranges fail the load.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { atoi } from './c-atoi.js';

export const validateByteRange: OperatorFactory = (param) => {
  const allowed = new Uint8Array(256);
  const parts = param.split(',').filter((p) => p.length > 0);
  if (parts.length === 0) throw new Error("missing parameter for operator 'validateByteRange'");
  for (const part of parts) {
    const dash = part.indexOf('-');
    if (dash < 0) {
      const x = atoi(part);
      if (x < 0 || x > 255) throw new Error(`invalid range value: ${x}`);
      allowed[x] = 1;
      continue;
    }
    const start = atoi(part.slice(0, dash));
    const end = atoi(part.slice(dash + 1));
    if (start < 0 || start > 255) throw new Error(`invalid range start value: ${start}`);
    if (end < 0 || end > 255) throw new Error(`invalid range end value: ${end}`);
    if (start > end) throw new Error(`invalid range: ${start}-${end}`);
    allowed.fill(1, start, end + 1);
  }
  return (input) => {
    for (let i = 0; i < input.length; i++) if (!allowed[input.charCodeAt(i)]) return true;
    return false;
  };
};

export const validateByteRangeOperator: OperatorDefinition = { create: validateByteRange, pure: false, effectsOnMatch: false, requiredBytes: null };
