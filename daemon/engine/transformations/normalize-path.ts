// t:normalizePath / t:normalisePath and the Win variants: ModSecurity's normalize_path_inplace(),
// ported step for step because its edge cases (leading "../" kept on relative paths, "//" collapsed,
// a trailing "/" kept only if the input had one) are what rules are written against.
import type { Transformation, TransformationDefinition } from './types.js';
import { fromCodes, toCodes } from './byte-string.js';

const SLASH = 0x2f, BACKSLASH = 0x5c, DOT = 0x2e;

export function normalizePathBytes(input: string, win: boolean): string {
  const n = input.length;
  if (n === 0) return input;
  if (!win ? !/\/\/|\.\/|\/\.|^\.|\.$/.test(input) : !/[\\/.]/.test(input)) return input;
  const b = toCodes(input);
  const end = n - 1;
  const isSep = (c: number) => c === SLASH || (win && c === BACKSLASH);
  const relative = !isSep(b[0]);
  const trailing = isSep(b[end]);
  let src = 0, dst = 0, ldst = 0, hitroot = false, done = false;
  while (!done && src <= end && dst <= end) {
    if (win) {
      if (b[src] === BACKSLASH) b[src] = SLASH;
      if (src < end && b[src + 1] === BACKSLASH) b[src + 1] = SLASH;
    }
    let skipCopy = false;
    let normalize = true;
    if (src === end) done = true;
    else if (b[src + 1] !== SLASH) normalize = false;
    if (normalize && !(src !== end && b[src] === SLASH)) {
      if (b[src] === DOT) {
        if (dst > 0 && b[dst - 1] === DOT) {
          if (relative && (hitroot || dst - 2 <= 0)) {
            hitroot = true;
          } else {
            dst -= 3;
            while (dst > 0 && b[dst] !== SLASH) dst--;
            if (dst <= 0) {
              hitroot = true;
              dst = 0;
              if (!relative && src === end) dst++;
            }
            if (done) skipCopy = true;
            else src++;
          }
        } else if (dst === 0) {
          if (done) skipCopy = true;
          else src++;
        } else if (b[dst - 1] === SLASH) {
          if (done) skipCopy = true;
          else { dst--; src++; }
        }
      } else if (dst > 0) {
        hitroot = false;
      }
    }
    if (!skipCopy) {
      let copy = true;
      if (b[src] === SLASH) {
        while (src < end && isSep(b[src + 1])) src++;
        if (relative && dst === 0) { src++; copy = false; }
      }
      if (copy) b[dst++] = b[src++];
    }
    ldst = dst;
  }
  if (!trailing && dst > 0 && b[dst - 1] === SLASH) { ldst--; dst--; }
  return fromCodes(b, ldst);
}

export const normalizePath: Transformation = (input) => normalizePathBytes(input, false);

// "//", "./", "/.", a leading or trailing '.': each needs '/' or '.'.
export const normalizePathTransformation: TransformationDefinition = { apply: normalizePath, triggerBytes: '/.' };
