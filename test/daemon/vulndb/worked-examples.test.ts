// The twelve worked examples of vulndb README §8, each a single item checked against the
// imported sample feed, plus the rules around them: once per item, types never cross,
// informational listed but not counted, attribution always present, fixed_in, item shape.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VulnCheckResponseSchema, type VulnCheckRequestInput, type VulnCheckResponse } from '../../../shared/schemas/vulndb.js';
import { VulnDb } from '../../../daemon/vulndb/vulndb.js';
import { ID, SAMPLE_FEED } from './helpers.js';

let dir: string;
let db: VulnDb;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-vulndb-examples-'));
  db = await VulnDb.open(dir);
  await db.import(SAMPLE_FEED);
});

afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

function check(body: VulnCheckRequestInput): VulnCheckResponse {
  const parsed = db.parseCheckRequest(body);
  if (!parsed.ok) throw new Error(parsed.message);
  const response = db.check(parsed.request, new Date('2026-11-22T05:00:00Z'));
  VulnCheckResponseSchema.parse(response); // every answer honours the contract
  return response;
}

/** Checks one item: core when type is core (with no plugins/themes), else with a core version nothing matches. */
function checkOne(type: 'core' | 'plugin' | 'theme', slug: string, version: string) {
  const body: VulnCheckRequestInput =
    type === 'core' ? { cms_version: version } : { cms_version: '6.6.1', [type === 'plugin' ? 'plugins' : 'themes']: [{ slug, version }] };
  const r = check(body);
  const list = type === 'core' ? r.cms.vulnerabilities : type === 'plugin' ? r.plugins[0].vulnerabilities : r.themes[0].vulnerabilities;
  return { ids: new Set(list.map((v) => v.id)), summary: r.summary, list };
}

const S = (total: number, c = 0, h = 0, m = 0, l = 0) => ({ total_vulnerabilities: total, critical: c, high: h, medium: m, low: l });

describe('README §8 worked examples', () => {
  const examples: [number, 'core' | 'plugin' | 'theme', string, string, (keyof typeof ID)[], ReturnType<typeof S>][] = [
    [1, 'core', 'wordpress', '6.4.1', ['core-objinj', 'core-nav-xss'], S(2, 0, 1, 1, 0)],
    [2, 'core', 'wordpress', '6.5.1', ['core-block-xss'], S(1, 0, 0, 1, 0)],
    [3, 'core', 'wordpress', '5.8.2', ['core-objinj', 'core-sqli'], S(2, 1, 1, 0, 0)],
    [4, 'plugin', 'contact-form-7', '5.3.1', ['cf7-file-upload', 'cf7-editor-upload'], S(2, 1, 1, 0, 0)],
    [5, 'plugin', 'contact-form-7', '5.8.4', [], S(0)],
    [6, 'plugin', 'woocommerce', '5.8.0', ['woo-sqli-branches', 'woo-info-exposure'], S(2, 1, 0, 0, 1)],
    [7, 'plugin', 'elementor', '3.18.0', ['elementor-widget-xss', 'elementor-missing-authz'], S(2, 0, 0, 1, 0)],
    [8, 'plugin', 'wordpress-seo', '22.10', [], S(0)],
    [9, 'plugin', 'nimbus-forms', '1.10.2', ['nimbus-rce', 'nimbus-csrf-all'], S(2, 1, 0, 1, 0)],
    [10, 'plugin', 'legacy-slider-pro', '3.4.3', ['legacy-slider-closed-info'], S(0)],
    [11, 'plugin', 'quickpay-gateway', '2.1.0-beta1', ['quickpay-beta-xss'], S(1, 0, 0, 0, 1)],
    [12, 'theme', 'astra', '4.6.8', ['astra-stored-xss'], S(1, 0, 0, 1, 0)],
  ];
  for (const [n, type, slug, version, labels, summary] of examples) {
    it(`#${n}: ${type} ${slug} ${version}`, () => {
      const got = checkOne(type, slug, version);
      expect(got.ids).toEqual(new Set(labels.map((l) => ID[l])));
      expect(got.summary).toEqual(summary);
    });
  }
});

describe('matching rules', () => {
  it('lists informational records with their flag and severity but never counts them, even with a score', () => {
    const r = checkOne('plugin', 'wordfence', '7.11.1');
    expect(r.ids).toEqual(new Set([ID['wordfence-debug-info']]));
    expect(r.list[0]).toMatchObject({ informational: true, severity: 'medium' });
    expect(r.summary).toEqual(S(0));
  });

  it('matches a record with two software items under each item, and counts it twice', () => {
    const r = check({ cms_version: '6.6.1', plugins: [{ slug: 'quickpay-gateway', version: '2.0.2' }], themes: [{ slug: 'oceanic-magazine', version: '2.1' }] });
    expect(r.plugins[0].vulnerabilities.map((v) => v.id)).toContain(ID['vendor-sdk-xss']);
    expect(r.themes[0].vulnerabilities.map((v) => v.id)).toContain(ID['vendor-sdk-xss']);
    expect(r.themes[0].vulnerabilities.map((v) => v.id).sort()).toEqual([ID['oceanic-unpatched'], ID['vendor-sdk-xss']].sort());
    // plugin 2.0.2: quickpay-beta-xss (low) + vendor-sdk-xss (medium);
    // theme 2.1: oceanic-unpatched (high) + vendor-sdk-xss (medium)
    expect(r.plugins[0].vulnerabilities.map((v) => v.id).sort()).toEqual([ID['quickpay-beta-xss'], ID['vendor-sdk-xss']].sort());
    expect(r.summary).toEqual(S(4, 0, 1, 2, 1));
  });

  it('counts a 0.0 score in the total only, severity none', () => {
    const r = checkOne('plugin', 'quickpay-gateway', '2.0.1');
    const noImpact = r.list.find((v) => v.id === ID['quickpay-no-impact']);
    expect(noImpact?.severity).toBe('none');
    // no-impact (none) + beta-xss (low) + vendor-sdk-xss (medium)
    expect(r.summary).toEqual(S(3, 0, 0, 1, 1));
  });

  it('never crosses types: the plugin astra does not match theme records', () => {
    expect(checkOne('plugin', 'astra', '4.0').ids.size).toBe(0);
    expect(checkOne('theme', 'astra', '4.0').ids).toEqual(new Set([ID['astra-stored-xss']]));
  });

  it('lists a record once per item even when several of its ranges match', () => {
    // core-objinj has five ranges; the duplicate request item is a separate item and counts again.
    const r = check({ cms_version: '6.4.2', plugins: [{ slug: 'unknown-plugin', version: '1.0' }] });
    expect(r.cms.vulnerabilities.filter((v) => v.id === ID['core-objinj'])).toHaveLength(1);
    expect(r.plugins[0]).toEqual({ slug: 'unknown-plugin', version: '1.0', vulnerabilities: [] });
  });

  it('normalises slugs (trim, lowercase) and versions (trim, leading v) and echoes the normalised values', () => {
    const r = check({ cms_version: ' v6.4.1 ', plugins: [{ slug: '  Contact-Form-7 ', version: 'V5.3.1' }] });
    expect(r.cms.version).toBe('6.4.1');
    expect(r.plugins[0].slug).toBe('contact-form-7');
    expect(r.plugins[0].version).toBe('5.3.1');
    expect(new Set(r.plugins[0].vulnerabilities.map((v) => v.id))).toEqual(new Set([ID['cf7-file-upload'], ID['cf7-editor-upload']]));
  });

  it('sorts by CVSS score descending, null last, then id', () => {
    const r = checkOne('plugin', 'elementor', '3.6.1');
    const scores = r.list.map((v) => v.cvss?.score ?? null);
    expect(scores).toEqual([9.9, 6.4, null]);
  });

  it('handles pre-release and pl bounds', () => {
    expect(checkOne('core', 'wordpress', '6.6-RC1').ids).toContain(ID['core-prerelease-csrf']);
    expect(checkOne('core', 'wordpress', '6.6').ids).not.toContain(ID['core-prerelease-csrf']);
    expect(checkOne('plugin', 'swift-cache-lite', '2.0.1').ids).toContain(ID['swift-cache-purge']);
    expect(checkOne('plugin', 'swift-cache-lite', '2.0pl1').ids).not.toContain(ID['swift-cache-purge']);
  });
});

describe('response items', () => {
  it('carry the record url, copyrights (MITRE when there is a CVE), fixed_in and the matching software fields', () => {
    const r = checkOne('core', 'wordpress', '6.1.2');
    const objinj = r.list.find((v) => v.id === ID['core-objinj'])!;
    expect(objinj.url).toBe(`https://www.wordfence.com/threat-intel/vulnerabilities/id/${ID['core-objinj']}?source=api-prod`);
    expect(objinj.fixed_in).toBe('6.1.5'); // the back-port of the checked branch, not 6.4.3
    expect(objinj.patched).toBe(true);
    expect(objinj.patched_versions).toContain('6.4.3');
    expect(objinj.remediation).toMatch(/Update/);
    expect(objinj.cve).toBe('CVE-2024-90101');
    expect(Object.keys(objinj.copyrights).sort()).toEqual(['defiant', 'message', 'mitre']);
    expect(objinj.published).toBe('2024-01-30T00:00:00Z');
    expect(objinj.severity).toBe('high');
  });

  it('has fixed_in null for an unpatched record', () => {
    const r = checkOne('theme', 'oceanic-magazine', '2.3.0');
    const unpatched = r.list.find((v) => v.id === ID['oceanic-unpatched'])!;
    expect(unpatched.patched).toBe(false);
    expect(unpatched.fixed_in).toBeNull();
  });

  it('always carries the attribution, with the Defiant notice, licence sentence and URL', () => {
    const r = checkOne('plugin', 'no-such-plugin', '1.0');
    expect(r.summary).toEqual(S(0));
    const full = check({ cms_version: '6.6.1' });
    expect(full.attribution.provider).toBe('Wordfence Intelligence');
    expect(full.attribution.provider_url).toBe('https://www.wordfence.com/threat-intel/vulnerabilities/');
    expect(full.attribution.license).toContain('Copyright 2012-2025 Defiant Inc.');
    expect(full.attribution.license).toContain('Defiant hereby grants you a perpetual, worldwide');
    expect(full.attribution.license).toContain('https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/');
    expect(full.checked_at).toBe('2026-11-22T05:00:00.000Z');
    expect(full).not.toHaveProperty('message');
    expect(full).not.toHaveProperty('data');
  });
});
