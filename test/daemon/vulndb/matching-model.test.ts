// The indexed matcher against a model: random feeds (several software items per record, several
// ranges, `*` bounds, pre-releases, mixed-case slugs) imported for real, then random requests
// checked both by VulnDb and by a direct reading of README §3 over the raw records.

import fc from 'fast-check';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VulnDb } from '../../../daemon/vulndb/vulndb.js';
import { compareVersions } from '../../../daemon/vulndb/version.js';
import { withTempDir } from './helpers.js';

const VERSIONS = ['*', '1.0', '1.0.0', '1.0-beta1', '1.0-RC1', '1.2', '1.10', '1.9.9', '2.0', '2.0pl1', 'v2.1', '3.0.0-dev', '10.0'];
const SLUGS = ['alpha', 'Beta-Plugin', 'gamma'];
const TYPES = ['plugin', 'theme'] as const;

const range = fc.record({
  from_version: fc.constantFrom(...VERSIONS),
  from_inclusive: fc.boolean(),
  to_version: fc.constantFrom(...VERSIONS),
  to_inclusive: fc.boolean(),
});
const software = fc.record({
  type: fc.constantFrom(...TYPES),
  slug: fc.constantFrom(...SLUGS),
  ranges: fc.array(range, { minLength: 1, maxLength: 3 }),
  patched_versions: fc.array(fc.constantFrom(...VERSIONS.filter((v) => v !== '*')), { maxLength: 3 }),
});
const feedArb = fc.array(fc.array(software, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 25 });
const requestArb = fc.array(fc.record({ type: fc.constantFrom(...TYPES), slug: fc.constantFrom(...SLUGS, 'none'), version: fc.constantFrom(...VERSIONS.filter((v) => v !== '*'), '0.9', '1.5', '99') }), {
  minLength: 1,
  maxLength: 6,
});

type Sw = { type: string; slug: string; ranges: { from_version: string; from_inclusive: boolean; to_version: string; to_inclusive: boolean }[]; patched_versions: string[] };

function contains(r: Sw['ranges'][number], v: string): boolean {
  const lower = r.from_version === '*' || compareVersions(v, r.from_version) > 0 || (r.from_inclusive && compareVersions(v, r.from_version) === 0);
  const upper = r.to_version === '*' || compareVersions(v, r.to_version) < 0 || (r.to_inclusive && compareVersions(v, r.to_version) === 0);
  return lower && upper;
}

/** README §3 read literally, plus fixed_in from DESIGN.md §5. */
function model(records: Sw[][], type: string, slug: string, version: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  records.forEach((sws, i) => {
    for (const sw of sws) {
      if (sw.type !== type || sw.slug.toLowerCase() !== slug.toLowerCase() || !sw.ranges.some((r) => contains(r, version))) continue;
      const above = sw.patched_versions.filter((p) => compareVersions(p, version) > 0).sort(compareVersions);
      out.set(`r${i}`, above[0] ?? null);
      return; // once per item: the first matching software item supplies the fields
    }
  });
  return out;
}

describe('matching against the README model', () => {
  it('lists exactly the records the rules say, once each, with the model fixed_in', async () => {
    await withTempDir(async (dir) => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(feedArb, requestArb, async (records, items) => {
          const feed: Record<string, unknown> = {};
          records.forEach((sws, i) => {
            feed[`r${i}`] = {
              id: `r${i}`,
              title: `record ${i}`,
              software: sws.map((sw) => ({
                type: sw.type,
                slug: sw.slug,
                name: sw.slug,
                affected_versions: Object.fromEntries(sw.ranges.map((r, k) => [`label ${k}`, r])),
                patched: sw.patched_versions.length > 0,
                patched_versions: sw.patched_versions,
              })),
              cvss: { vector: 'CVSS:3.1/x', score: (i % 11) - 0.5 < 0 ? 0 : (i % 11) - 0.5, rating: 'x' },
              copyrights: {},
            };
          });
          const db = await VulnDb.open(join(dir, `db${n++}`));
          await db.import(Readable.from([Buffer.from(JSON.stringify(feed))]));
          const parsed = db.parseCheckRequest({
            cms_version: '1.0',
            plugins: items.filter((x) => x.type === 'plugin').map(({ slug, version }) => ({ slug, version })),
            themes: items.filter((x) => x.type === 'theme').map(({ slug, version }) => ({ slug, version })),
          });
          if (!parsed.ok) throw new Error(parsed.message);
          const r = db.check(parsed.request);
          db.close();
          const results = [...r.plugins.map((p) => ({ type: 'plugin', ...p })), ...r.themes.map((t) => ({ type: 'theme', ...t }))];
          for (const res of results) {
            const expected = model(records, res.type, res.slug, res.version);
            const got = new Map(res.vulnerabilities.map((v) => [v.id, v.fixed_in]));
            expect(res.vulnerabilities).toHaveLength(got.size); // no duplicates
            expect(got).toEqual(expected);
          }
        }),
        { numRuns: 60 },
      );
    });
  });
});
