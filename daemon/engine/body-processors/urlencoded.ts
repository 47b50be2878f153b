// URLENCODED: ModSecurity's parse_arguments(). Pairs split on SecArgumentSeparator; a name runs to
// '=' or the separator; "a" and "a=" give an empty value, "&&" gives an empty name with an empty
// value, "=v" an empty name. Names and values are URL-decoded non-strictly (t:urlDecode rules: '+'
// is a space, an invalid %xx stays as it is and sets URLENCODED_ERROR).
// The parse stops at the first argument past SecArgumentsLimit (the rest of the body is not read:
// the request body is in error and refused) and runs on the time budget (parse-clock.ts).
import type { BodyProcessor } from './types.js';
import { ArgumentList, ARGUMENT_LIMIT_MESSAGE } from './argument-list.js';
import { urlDecodeCounting } from './url-decode-counting.js';
import { ParseClock } from './parse-clock.js';

export const urlencoded: BodyProcessor = (body, _contentType, limits) => {
  const text = body.toString('latin1');
  const sep = (limits.argumentSeparator ?? '&').charCodeAt(0);
  const list = new ArgumentList(limits.maxArgs);
  const clock = new ParseClock(limits);
  let invalid = 0;
  const decode = (s: string) => {
    const r = urlDecodeCounting(s);
    invalid += r.invalid;
    return r.value;
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (list.full()) return { args: list.args, files: [], urlencodedError: invalid > 0, error: ARGUMENT_LIMIT_MESSAGE, stoppedAt: i };
    clock.tick();
    const nameStart = i;
    while (i < n && text.charCodeAt(i) !== 0x3d && text.charCodeAt(i) !== sep) i++;
    const name = decode(text.slice(nameStart, i));
    if (i < n && text.charCodeAt(i) === sep) {
      list.add(name, '');
      i++;
      continue;
    }
    // At '=' or at the end: a value follows (possibly empty).
    i++;
    const valueStart = i;
    while (i < n && text.charCodeAt(i) !== sep) i++;
    list.add(name, decode(text.slice(Math.min(valueStart, n), i)));
    i++;
  }
  return { args: list.args, files: [], urlencodedError: invalid > 0 };
};
