// ModSecurity's urldecode_nonstrict_inplace_ex() with its invalid-encoding count, which the
// URLENCODED processor turns into URLENCODED_ERROR.
import { urlDecode } from '../transformations/url-decode.js';

const INVALID = /%(?![0-9a-fA-F]{2})/g;

export function urlDecodeCounting(input: string): { value: string; invalid: number } {
  if (input.indexOf('%') < 0) return { value: urlDecode(input), invalid: 0 };
  const invalid = input.match(INVALID)?.length ?? 0;
  return { value: urlDecode(input), invalid };
}
