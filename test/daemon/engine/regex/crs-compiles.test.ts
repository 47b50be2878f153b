import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { compilePcre } from '../../../../daemon/engine/regex/index.js';
import { collectRx, CRS_RULES_DIR } from './crs-rx.js';

// The Debian package modsecurity-crs (CRS 3.3.4) is part of the build environment (see .ci/run).
describe.skipIf(!existsSync(CRS_RULES_DIR))('every CRS 3.3.4 regex', () => {
  const sites = collectRx(CRS_RULES_DIR);
  it('finds the rule set\'s regexes', () => {
    expect(sites.length).toBeGreaterThan(250);
  });
  it('translates and compiles every one of them', () => {
    const failures: string[] = [];
    for (const site of sites) {
      try {
        compilePcre(site.pattern);
      } catch (err) {
        failures.push(`${site.file}:${site.line}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });
  it('all but 14 take V8\'s linear-time engine, the bound on backtracking (regex-safety.ts)', () => {
    setFlagsFromString('--enable-experimental-regexp-engine'); // only so that `l` can be asked about
    const refused: string[] = [];
    for (const site of sites) {
      const { regex } = compilePcre(site.pattern);
      try {
        new RegExp(regex.source, `${regex.flags}l`);
      } catch {
        refused.push(`${site.file}:${site.line}`);
      }
    }
    // 5 lookarounds or back references, 9 counted repeats above 16 (bench/rx-fuzz/linear-eligibility.ts).
    // Before caseless letters were expanded instead of using the i flag: 100 refused.
    expect(refused.length).toBeLessThanOrEqual(14);
  });
});
