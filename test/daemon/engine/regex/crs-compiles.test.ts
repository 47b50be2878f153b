import { existsSync } from 'node:fs';
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
});
