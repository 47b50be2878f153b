// t:cmdLine: ModSecurity's command-line normaliser: deletes " ' \ ^, turns runs of space , ; \t \r \n
// into one space, drops a space before '/' or '(', lower-cases the rest. It walks a C string, so it
// stops at the first NUL.
import type { Transformation, TransformationDefinition } from './types.js';
import { toLower } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';
import { UPPER } from './byte-ranges.js';

// Anything cmdLine would change: a deleted or separator byte, an upper-case letter, a NUL, or a
// space that is doubled or stands before '/' or '('.
const WORK = /[\x00"'\\^,;\t\r\nA-Z]| [ /(]/;

export const cmdLine: Transformation = (input) => {
  if (!WORK.test(input)) return input;
  const out = scratch(input.length);
  let d = 0;
  let space = false;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    switch (c) {
      case 0x00:
        return fromCodes(out, d);
      case 0x22: case 0x27: case 0x5c: case 0x5e:
        continue;
      case 0x20: case 0x2c: case 0x3b: case 0x09: case 0x0d: case 0x0a:
        if (!space) {
          out[d++] = 0x20;
          space = true;
        }
        break;
      case 0x2f: case 0x28:
        if (space) d--;
        space = false;
        out[d++] = c;
        break;
      default:
        out[d++] = toLower(c);
        space = false;
    }
  }
  return fromCodes(out, d);
};

export const cmdLineTransformation: TransformationDefinition = { apply: cmdLine, triggerBytes: `\0"'\\^,;\t\r\n ${UPPER}` };
