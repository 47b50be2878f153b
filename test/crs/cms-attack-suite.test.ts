// The `cms` group's WordPress exclusions must not cost detections: CRS 3.3.4's whole regression
// suite through the edge with the group on. crs-conformance.test.ts shows every test off its ignore
// list passes without the group; here each of them must pass with it too, unless
// cms-differences.tsv names it with a reason (an exclusion meant to let that request through on a
// WordPress site).
import { describe, it, expect } from 'vitest';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { crsInstalled, loadCiWafWithCms } from './ci-waf.js';
import { loadIgnoreList, loadSuite, runConformance } from './conformance.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const reason = crsInstalled() ? '' : ' (skipped: /usr/share/modsecurity-crs is missing; apt-get install modsecurity-crs)';

describe.skipIf(!crsInstalled())(`CRS 3.3.4 attack suite with the cms group on${reason}`, () => {
  it('passes every test the group-less rule set passes, but those listed with a reason', async () => {
    const tests = loadSuite();
    const ignored = loadIgnoreList(join(HERE, 'ignore-list.tsv'));
    const expected = loadIgnoreList(join(HERE, 'cms-differences.tsv'));
    const results = await runConformance(loadCiWafWithCms(defaultRegistries), tests);
    const lost = results.filter((r) => !r.passed && !ignored.has(r.title));
    const unexplained = lost.filter((r) => !expected.has(r.title)).map((r) => `${r.title}: ${r.reason}`);
    const stale = [...expected.keys()].filter((title) => !lost.some((r) => r.title === title));
    console.log(`CRS 3.3.4 with the cms group on: ${results.filter((r) => r.passed).length}/${tests.length} passed; ${lost.length} lost (${expected.size} listed)`);
    expect(unexplained).toEqual([]);
    expect(stale, 'cms-differences.tsv lists tests that pass with the group on now').toEqual([]);
  }, 600_000);
});
