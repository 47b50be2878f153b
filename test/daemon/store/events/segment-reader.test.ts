import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endsFingerprint, prefixFingerprint, readSegmentEnds } from '../../../../daemon/store/events/segment-reader.js';
import { tempDir } from './helpers.js';

const lines = (n: number, width: number): string => Array.from({ length: n }, (_, i) => `{"id":${i + 1},"pad":"${'x'.repeat(width)}"}\n`).join('');

describe('segment ends (open reads each segment once)', () => {
  it('gives the same fingerprint as a separate read, for whole and partial coverage, small and large files', () => {
    const dir = tempDir();
    for (const [n, width] of [[0, 0], [1, 10], [3, 2000], [40, 300], [400, 300]] as const) {
      const file = path.join(dir, `waf-${n}-${width}.jsonl`);
      fs.writeFileSync(file, lines(n, width));
      const size = fs.statSync(file).size;
      const ends = readSegmentEnds(file);
      expect(ends).toMatchObject({ size, cut: 0 });
      for (const covered of [size, Math.floor(size / 2), 0]) expect(endsFingerprint(file, ends, covered)).toBe(prefixFingerprint(file, covered));
    }
  });

  it('cuts a torn tail first, and fingerprints what is left', () => {
    const dir = tempDir();
    const file = path.join(dir, 'waf-torn.jsonl');
    const whole = lines(50, 200);
    fs.writeFileSync(file, whole + '{"id":51,"pa');
    const ends = readSegmentEnds(file);
    expect(ends).toMatchObject({ size: whole.length, cut: '{"id":51,"pa'.length });
    expect(fs.readFileSync(file, 'utf8')).toBe(whole);
    expect(endsFingerprint(file, ends, whole.length)).toBe(prefixFingerprint(file, whole.length));
  });

  it('a segment that is one torn line is cut to nothing', () => {
    const file = path.join(tempDir(), 'waf-one.jsonl');
    fs.writeFileSync(file, '{"id":1');
    expect(readSegmentEnds(file)).toMatchObject({ size: 0, cut: 7 });
    expect(fs.statSync(file).size).toBe(0);
  });
});
