// A `/regex/` key selector's answers, kept across transactions. CRS reads TX by regex on every
// request (`TX:/^HEADER_NAME_/` in 920450's chain, `&TX:'/LEAKAGE\/ERRORS/'` in the 980 correlation
// rules...), each time over all ~100 TX names, and those names are nearly the same strings from
// one request to the next. A lookup of a name seen before costs a third of a regex test. Bounded:
// keys are request data for ARGS:/regex/ and the like. An anchored literal (`^header_name_`)
// needs no memo: a case-insensitive prefix compare is cheaper still.
import { StringMemo } from '../macros/string-memo.js';

const LIMITS = { entries: 1024, inputLength: 128 };

export type KeyTest = (key: string) => boolean;

/** `^name_prefix` (case-insensitive, as every selector regex is): CRS's `TX:/^header_name_/`. */
const ANCHORED_LITERAL = /^\^([A-Za-z0-9_-]+)$/;

export function memoizedKeyTest(re: RegExp): KeyTest {
  const literal = ANCHORED_LITERAL.exec(re.source);
  if (literal !== null) return prefixTest(literal[1].toLowerCase());
  const answers = new StringMemo((key) => re.test(key), LIMITS);
  return (key) => answers.get(key);
}

/** A case-insensitive startsWith: cheaper than a lookup, and most names differ at the first char. */
function prefixTest(prefix: string): KeyTest {
  const n = prefix.length;
  return (key) => {
    if (key.length < n) return false;
    for (let i = 0; i < n; i++) {
      let c = key.charCodeAt(i);
      if (c >= 65 && c <= 90) c += 32; // A-Z
      if (c !== prefix.charCodeAt(i)) return false;
    }
    return true;
  };
}
