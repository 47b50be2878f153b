// A `/regex/` key selector's test, memoized or (anchored literal) a prefix compare: always the
// regex's own answer (variables/key-regex-memo.ts).
import { describe, expect, it } from 'vitest';
import { memoizedKeyTest } from '../../../../daemon/engine/variables/key-regex-memo.js';

const KEYS = [
  'header_name_accept', 'HEADER_NAME_Accept', 'Header_Name_', 'header_name', 'xheader_name_a', '', 'h',
  'multipart_headers_content_types_1', 'MULTIPART_HEADERS_CONTENT_TYPES', 'tx.942100-OWASP_CRS/LEAKAGE/ERRORS-ARGS:a',
  'leakage/errors', '\xc8eader_name_x', 'header\xadname_', 'a', 'A', 'ab-c', 'AB-C_1',
];

describe('memoizedKeyTest', () => {
  it.each(['^header_name_', 'MULTIPART_HEADERS_CONTENT_TYPES_*', '^a', '^ab-c', 'leakage\\/errors', '^(?:a|b)'])('answers as /%s/is does, asked twice', (source) => {
    const re = new RegExp(source, 'is');
    const test = memoizedKeyTest(re);
    for (let round = 0; round < 2; round++) for (const key of KEYS) expect(test(key), `${source} on ${JSON.stringify(key)}`).toBe(re.test(key));
  });

  it('stays right past its bound (more distinct names than it keeps) and for long names', () => {
    const re = /_7$/is;
    const test = memoizedKeyTest(re);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3000; i++) expect(test(`name_${i}`)).toBe(re.test(`name_${i}`));
    }
    const long = `${'x'.repeat(200)}_7`;
    expect(test(long)).toBe(true);
    expect(test(long.slice(0, -1))).toBe(false);
  });
});
