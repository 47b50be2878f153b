// The `cms` group's WordPress exclusions must not cost detections: CRS 3.3.4's whole regression
// suite through the edge with the group on, against the same suite without it. Every test that
// passes without the group passes with it, unless cms-differences.tsv names it with a reason (an
// exclusion that is meant to let that request through on a WordPress site).
import { describe, it, expect } from 'vitest';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { crsInstalled, loadCiWaf, loadCiWafWithCms } from './ci-waf.js';
import { loadIgnoreList, loadSuite, runConformance } from './conformance.js';

const DIFFERENCES = join(dirname(fileURLToPath(import.meta.url)), 'cms-differences.tsv');
const reason = crsInstalled() ? '' : ' (skipped: /usr/share/modsecurity-crs is missing; apt-get install modsecurity-crs)';

describe.skipIf(!crsInstalled())(`CRS 3.3.4 attack suite with the cms group on${reason}`, () => {
  it('passes every test it passes without the group, but those listed with a reason', async () => {
    const tests = loadSuite();
    const expected = loadIgnoreList(DIFFERENCES);
    const without = await runConformance(loadCiWaf(defaultRegistries), tests);
    const withCms = await runConformance(loadCiWafWithCms(defaultRegistries), tests);
    const passedWithout = new Set(without.filter((r) => r.passed).map((r) => r.title));
    const lost = withCms.filter((r) => !r.passed && passedWithout.has(r.title));
    const unexplained = lost.filter((r) => !expected.has(r.title)).map((r) => `${r.title}: ${r.reason}`);
    const stale = [...expected.keys()].filter((title) => !lost.some((r) => r.title === title));
    const gained = withCms.filter((r) => r.passed && !passedWithout.has(r.title)).map((r) => r.title);
    if (gained.length > 0) console.log(`passed only with the group on: ${gained.join(', ')} (without: ${without.filter((r) => gained.includes(r.title)).map((r) => r.reason).join('; ')})`);
    console.log(`cms group on: ${withCms.filter((r) => r.passed).length}/${tests.length} passed (without: ${without.filter((r) => r.passed).length}); ${lost.length} lost, ${expected.size} listed`);
    expect(unexplained).toEqual([]);
    expect(stale, 'cms-differences.tsv lists tests that pass with the group on now').toEqual([]);
  }, 900_000);
});
