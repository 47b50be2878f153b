// t:sha1 / t:md5 hash the same few values request after request (CRS hashes every request's
// User-Agent), and a digest costs microseconds while a Map lookup costs tens of nanoseconds.
// The memo is bounded: when it is full it starts over (no per-hit bookkeeping).
import type { Transformation } from './types.js';

/** Values up to this long are remembered (a User-Agent fits; a request body does not). */
const MAX_INPUT = 512;

export function digestMemo(digest: Transformation, limit = 1024): Transformation {
  const memo = new Map<string, string>();
  return (input) => {
    if (input.length > MAX_INPUT) return digest(input);
    let out = memo.get(input);
    if (out === undefined) {
      out = digest(input);
      if (memo.size >= limit) memo.clear();
      memo.set(input, out);
    }
    return out;
  };
}
