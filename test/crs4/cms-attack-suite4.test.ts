// The `cms` group under CRS 4 (CRS's WordPress rule-exclusions plugin plus wafctl's WordPress rules)
// must not cost detections: the train part of CRS 4.28's suite with the group on. Every test
// crs4-conformance.test.ts passes must pass here too, unless cms-differences.tsv names it with a
// reason (an exclusion meant to let that request through on a WordPress site).
import { describe, it, expect } from 'vitest';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { CMS_RULES } from '../../daemon/rule-sets/rule-set-builder.js';
import { loadIgnoreList } from '../crs/conformance.js';
import { CRS4_DIR, crs4Present, loadCrs4CiWaf } from './crs4-ci-waf.js';
import { runGoFtwConformance } from './conformance4.js';
import { loadGoFtwTests } from './go-ftw-suite.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const skipped = crs4Present() ? '' : ` (skipped: CRS 4.28 not found at ${CRS4_DIR}; set WAFCTL_CRS4_DIR)`;

describe.skipIf(!crs4Present())(`CRS 4.28 attack suite with the cms group on${skipped}`, () => {
  it('passes every train test the group-less rule set passes, but those listed with a reason', async () => {
    const tests = loadGoFtwTests(join(CRS4_DIR, 'tests'));
    const ignored = loadIgnoreList(join(HERE, 'ignore-list.tsv'));
    const expected = loadIgnoreList(join(HERE, 'cms-differences.tsv'));
    const waf = loadCrs4CiWaf(defaultRegistries, [join(CRS4_DIR, 'wordpress-plugin', 'plugins')], [{ file: CMS_RULES }]);
    const results = await runGoFtwConformance(waf, tests);
    const lost = results.filter((r) => !r.passed && !ignored.has(r.title));
    const unexplained = lost.filter((r) => !expected.has(r.title)).map((r) => `${r.title}: ${r.reason} fired=[${r.firedIds.join(',')}]`);
    const stale = [...expected.keys()].filter((title) => !lost.some((r) => r.title === title));
    console.log(`CRS 4.28 train part with the cms group on: ${results.filter((r) => r.passed).length}/${tests.length} passed; ${lost.length} lost (${expected.size} listed)`);
    expect(unexplained).toEqual([]);
    expect(stale, 'cms-differences.tsv lists tests that pass with the group on now').toEqual([]);
  }, 300_000);
});
