// t:removeComments: ModSecurity's removeComments: drops /* ... */ and <!-- ... --> (an unterminated one
// becomes a single space), and cuts everything from "--" or "#" on. Quirk kept: the byte right after a
// comment's end is copied unexamined, and when the comment ends the input that byte is the C string's
// terminating NUL, which lands in the output.
import type { Transformation, TransformationDefinition } from './types.js';
import { fromCodes, scratch } from './byte-string.js';

export const removeComments: Transformation = (input) => {
  const n = input.length;
  if (input.indexOf('/*') < 0 && input.indexOf('<!--') < 0 && input.indexOf('--') < 0 && input.indexOf('#') < 0) return input;
  const out = scratch(n + 1);
  let i = 0, d = 0, inComment = false;
  while (i < n) {
    const c = byteAt(input, i);
    if (!inComment) {
      if (c === 0x2f && i + 1 < n && byteAt(input, i + 1) === 0x2a) { inComment = true; i += 2; }
      else if (c === 0x3c && i + 3 < n && byteAt(input, i + 1) === 0x21 && byteAt(input, i + 2) === 0x2d && byteAt(input, i + 3) === 0x2d) { inComment = true; i += 4; }
      else if ((c === 0x2d && i + 1 < n && byteAt(input, i + 1) === 0x2d) || c === 0x23) break;
      else { out[d++] = c; i++; }
    } else if (c === 0x2a && i + 1 < n && byteAt(input, i + 1) === 0x2f) {
      inComment = false;
      i += 2;
      out[d++] = byteAt(input, i++);
    } else if (c === 0x2d && i + 2 < n && byteAt(input, i + 1) === 0x2d && byteAt(input, i + 2) === 0x3e) {
      inComment = false;
      i += 3;
      out[d++] = byteAt(input, i++);
    } else {
      i++;
    }
  }
  if (inComment) out[d++] = 0x20;
  return fromCodes(out, d);
};

/** The byte at k, or the C string's terminating NUL past the end. */
function byteAt(s: string, k: number): number {
  return k < s.length ? s.charCodeAt(k) : 0;
}

// Comments start with "/*", "<!--", "--" or "#": each needs '*', '-' or '#'.
export const removeCommentsTransformation: TransformationDefinition = { apply: removeComments, triggerBytes: '*-#' };
