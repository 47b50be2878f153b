import { describe, it, expect } from 'vitest';
import { apacheGetParents, apacheUnescapePath } from '../../../../daemon/engine/request/apache-path.js';

describe('Apache path normalisation (REQUEST_FILENAME from phase 2)', () => {
  it('URL-decodes without turning + into a space', () => {
    expect(apacheUnescapePath('/array_diff%20foo%20%28+')).toBe('/array_diff foo (+');
  });
  it('refuses what Apache refuses: bad escapes, %00, %2F', () => {
    expect(apacheUnescapePath('/a%zz')).toBeUndefined();
    expect(apacheUnescapePath('/a%00')).toBeUndefined();
    expect(apacheUnescapePath('/a%2fb')).toBeUndefined();
  });
  it('removes dot segments without climbing above the root', () => {
    expect(apacheGetParents('/a/./b/../c')).toBe('/a/c');
    expect(apacheGetParents('/../../etc/passwd')).toBe('/etc/passwd');
    expect(apacheGetParents('/a/b/..')).toBe('/a/');
  });
});
