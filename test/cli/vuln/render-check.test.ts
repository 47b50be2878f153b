// The human view and the CI gate, on real responses from the vulndb module and the sample feed.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCheck, checkWarnings } from '../../../cli/vuln/render-check.js';
import { gate, parseFailOn } from '../../../cli/vuln/fail-on.js';
import { colourStyle, plainStyle } from '../../../cli/style.js';
import { VulnDb } from '../../../daemon/vulndb/vulndb.js';
import type { VulnCheckRequestInput, VulnCheckResponse } from '../../../shared/schemas/vulndb.js';
import { SAMPLE_FEED } from '../../daemon/vulndb/helpers.js';

let dir: string;
let db: VulnDb;
let empty: VulnDb;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-vuln-render-'));
  db = await VulnDb.open(join(dir, 'db'));
  await db.import(SAMPLE_FEED);
  empty = await VulnDb.open(join(dir, 'empty'));
});

afterAll(async () => {
  db.close();
  empty.close();
  await rm(dir, { recursive: true, force: true });
});

async function check(body: VulnCheckRequestInput, on: VulnDb = db): Promise<VulnCheckResponse> {
  return on.checkBody(body, new Date('2026-11-22T06:00:00Z'));
}

describe('renderCheck', () => {
  it('groups by component, shows severity, score, fix and link, then the summary and the full attribution', async () => {
    const r = await check({
      cms_version: '6.4.1',
      plugins: [{ slug: 'contact-form-7', version: '5.3.1' }, { slug: 'akismet', version: '5.3.1' }, { slug: 'legacy-slider-pro', version: '3.4.3' }],
      themes: [{ slug: 'oceanic-magazine', version: '2.3.0' }],
    });
    const text = renderCheck(r, { style: plainStyle });
    const lines = text.split('\n');
    expect(lines[0]).toBe('WordPress core 6.4.1  2 vulnerabilities');
    expect(text).toContain('Plugin contact-form-7 5.3.1  2 vulnerabilities');
    expect(text).toContain('Plugin akismet 5.3.1  no known vulnerabilities');
    expect(text).toContain('Plugin legacy-slider-pro 3.4.3  0 vulnerabilities, 1 informational');
    expect(lines).toContain('  CRITICAL 10.0  Contact Form 7 <= 5.3.1 - Unauthenticated Unrestricted File Upload');
    expect(text).toContain('  HIGH      7.2  WordPress Core < 6.4.3');
    expect(text).toContain('  INFO       -   Legacy Slider Pro');
    expect(text).toContain('fixed in 6.4.3'); // core-objinj from 6.4.1: the 6.4 branch's fix
    expect(text).toContain('fixed in 6.4.2'); // core-nav-xss
    expect(text).toContain('no fix available'); // oceanic-unpatched
    expect(text).toContain('https://www.wordfence.com/threat-intel/vulnerabilities/id/');
    expect(text).toContain('Summary: 5 vulnerabilities (1 critical, 3 high, 1 medium, 0 low) in WordPress core, 3 plugins and 1 theme');
    const last = lines.filter((l) => l !== '').at(-1)!;
    expect(last).toMatch(/^Vulnerability data: Wordfence Intelligence \(https:\/\/www\.wordfence\.com\/threat-intel\/vulnerabilities\/\)\. Copyright 2012-2025 Defiant Inc\. Defiant hereby grants/);
    expect(last).toContain('(https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/)');
    expect(text).not.toContain('\u001b[');
  });

  it('colours by severity when colour is wanted, and can hide clean components', async () => {
    const r = await check({ cms_version: '6.6.1', plugins: [{ slug: 'contact-form-7', version: '5.3.1' }, { slug: 'akismet', version: '5.3.1' }] });
    const text = renderCheck(r, { style: colourStyle, showClean: false });
    expect(text).toContain('\u001b[1m\u001b[31mCRITICAL');
    expect(text).toContain('\u001b[31mHIGH');
    expect(text).not.toContain('akismet');
    expect(text).not.toContain('WordPress core 6.6.1');
  });

  it('warns on stderr material when no database is loaded', async () => {
    const r = await check({ cms_version: '6.4.1' }, empty);
    expect(checkWarnings(r)).toEqual([r.message]);
    expect(renderCheck(r, { style: plainStyle })).toContain('WordPress core 6.4.1  no known vulnerabilities');
    expect(checkWarnings(await check({ cms_version: '6.4.1' }))).toEqual([]);
  });
});

describe('--fail-on gate', () => {
  it('parses levels case-insensitively and refuses others', () => {
    expect(parseFailOn('HIGH')).toBe('high');
    expect(parseFailOn('any')).toBe('any');
    expect(parseFailOn('severe')).toBeNull();
  });

  it('fails at or above the level, never on informational records, and never by default', async () => {
    // elementor 3.18.0: widget-xss (medium) + missing-authz (unknown); legacy-slider 3.4.3: informational only
    const r = await check({ cms_version: '6.6.1', plugins: [{ slug: 'elementor', version: '3.18.0' }, { slug: 'legacy-slider-pro', version: '3.4.3' }] });
    expect(gate(r, 'none')).toEqual({ fail: false });
    expect(gate(r, 'high')).toEqual({ fail: false });
    expect(gate(r, 'medium')).toEqual({ fail: true, reason: 'found', count: 1 });
    expect(gate(r, 'low')).toEqual({ fail: true, reason: 'found', count: 1 });
    expect(gate(r, 'any')).toEqual({ fail: true, reason: 'found', count: 2 });
    const info = await check({ cms_version: '6.6.1', plugins: [{ slug: 'legacy-slider-pro', version: '3.4.3' }] });
    expect(gate(info, 'any')).toEqual({ fail: false });
  });

  it('cannot pass a gate without a database', async () => {
    const r = await check({ cms_version: '6.4.1' }, empty);
    expect(gate(r, 'critical')).toEqual({ fail: true, reason: 'no_database' });
    expect(gate(r, 'none')).toEqual({ fail: false });
  });
});
