// Paranoia under both CRS lines and CRS 4 plugins, on the real rule sets: CRS 4.28 from
// ../shared/crs4 and Debian's CRS 3.3 (/usr/share/modsecurity-crs). Each request goes through the
// same adapter and engine the edge uses (engineRequestFrom, compileRuleSet).
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InspectedRequest } from '../../../daemon/proxy/inspector.js';
import { engineRequestFrom } from '../../../daemon/rule-sets/engine-request.js';
import { compileRuleSet, findCrs, type CrsLocation } from '../../../daemon/rule-sets/rule-set-builder.js';
import { ruleSettings, type WafRuleSettingsInput } from '../../../daemon/rule-sets/rule-settings.js';

const CRS4_DIR = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'crs4');
const CRS3_DIR = '/usr/share/modsecurity-crs';
const base: WafRuleSettingsInput = { paranoia: 1, inboundThreshold: 5, outboundThreshold: 4, groups: { cms: true, crs: true }, before: null, after: null };

// Only rule 920273 (paranoia level 4: ARGS outside a very strict byte set) objects to a space in an
// argument: 920272 (level 3) allows it, and nothing at levels 1-2 looks at it.
const PL4_ONLY = '/search?q=a%20b';
// An e-acute: 920272 (level 3) objects, levels 1-2 do not.
const PL3 = '/search?q=caf%C3%A9';

function request(method: string, uri: string, body: string | null = null): InspectedRequest {
  const headers: Array<[string, string]> = [['Host', 'shop.example.test'], ['User-Agent', 'Mozilla/5.0 test'], ['Accept', 'text/html']];
  if (body !== null) headers.push(['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', String(Buffer.byteLength(body))]);
  return {
    requestId: 'r', method, uri, protocol: 'HTTP/1.1', headers, clientAddr: '203.0.113.9', clientPort: 40000,
    serverAddr: '127.0.0.1', serverPort: 8080, body: body === null ? null : Buffer.from(body, 'latin1'),
    site: { id: 1, domain: 'shop.example.test', mode: 'on', paranoia: 1 },
  };
}

function run(crs: CrsLocation, settings: Partial<WafRuleSettingsInput>, req: InspectedRequest): { blocked: boolean; ids: number[] } {
  const waf = compileRuleSet(ruleSettings({ ...base, ...settings }), crs);
  const tx = waf.newTransaction(engineRequestFrom(req));
  const interruption = tx.processRequest();
  return { blocked: interruption !== null, ids: tx.matches.map((m) => m.id) };
}

describe.each([
  { line: 4, dir: CRS4_DIR },
  { line: 3, dir: CRS3_DIR },
])('paranoia under CRS $line', ({ line, dir }) => {
  const crs = findCrs(dir);

  it('is the CRS line the rules say', () => {
    expect(crs, `CRS ${line} at ${dir}`).not.toBeNull();
    expect(crs!.line).toBe(line);
  });

  it('paranoia 4 runs the level-4 rules and blocks on them; paranoia 1 does not run them', () => {
    expect(run(crs!, { paranoia: 4 }, request('GET', PL4_ONLY))).toMatchObject({ blocked: true, ids: expect.arrayContaining([920273]) });
    const atOne = run(crs!, { paranoia: 1 }, request('GET', PL4_ONLY));
    expect(atOne.blocked).toBe(false);
    expect(atOne.ids).not.toContain(920273);
  });

  it('paranoia 3 blocks on a level-3 rule that paranoia 2 does not run', () => {
    expect(run(crs!, { paranoia: 3 }, request('GET', PL3))).toMatchObject({ blocked: true, ids: expect.arrayContaining([920272]) });
    expect(run(crs!, { paranoia: 2 }, request('GET', PL3)).blocked).toBe(false);
  });

  it('detection paranoia above blocking runs and logs the higher-level rules without blocking on them', () => {
    const detected = run(crs!, { paranoia: 1, detectionParanoia: 4 }, request('GET', PL4_ONLY));
    expect(detected.blocked).toBe(false);
    expect(detected.ids).toContain(920273);
    // The level-1 rules still block.
    expect(run(crs!, { paranoia: 1, detectionParanoia: 4 }, request('GET', '/?id=1%27%20OR%201=1--')).blocked).toBe(true);
  });

  it('refuses a detection level below the blocking level', () => {
    expect(() => run(crs!, { paranoia: 3, detectionParanoia: 2 }, request('GET', '/'))).toThrow(/detection paranoia level 2 is below the paranoia level 3/);
  });
});

describe('CRS 4 plugins', () => {
  it("load in CRS's order: crs-setup, *-config, *-before, the rules, *-after", () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-plugins-'));
    symlinkSync(join(CRS4_DIR, 'rules'), join(dir, 'rules'));
    cpSync(join(CRS4_DIR, 'crs-setup.conf.example'), join(dir, 'crs-setup.conf'));
    mkdirSync(join(dir, 'plugins'));
    // Phase-1 rules run in load order: each one sees what ran before it and not what runs after.
    // crs-setup sets tx.crs_setup_version (900990); REQUEST-901 sets tx.critical_anomaly_score.
    writeFileSync(join(dir, 'plugins', 'order-config.conf'),
      'SecRule &TX:crs_setup_version "@eq 1" "id:9990001,phase:1,pass,log,msg:\'config after setup\',setvar:tx.order_config=1"\n');
    writeFileSync(join(dir, 'plugins', 'order-before.conf'),
      'SecRule &TX:order_config "@eq 1" "id:9990002,phase:1,pass,log,msg:\'before after config\',chain"\n  SecRule &TX:critical_anomaly_score "@eq 0" "t:none"\n');
    writeFileSync(join(dir, 'plugins', 'order-after.conf'),
      'SecRule &TX:critical_anomaly_score "@eq 1" "id:9990003,phase:1,pass,log,msg:\'after after the rules\'"\n');
    const crs = findCrs(dir)!;
    expect(crs.plugins.config.map((f) => f.slice(dir.length))).toEqual(['/plugins/order-config.conf']);
    const { ids } = run(crs, {}, request('GET', '/'));
    expect(ids).toEqual(expect.arrayContaining([9990001, 9990002, 9990003]));
  });

  it('the cms group loads CRS\'s WordPress rule-exclusions plugin: a request CRS alone blocks passes', () => {
    // From the plugin's own test 9507793-1: embedding an XHTML file through admin-ajax.php, which
    // CRS's XSS rule 941130 blocks without the plugin.
    const crs = findCrs(CRS4_DIR)!;
    const embed = () => request('POST', '/wp-admin/admin-ajax.php', 'action=parse-embed&shortcode=[embed]https://example.com/file.xhtml[/embed]');
    const without = run(crs, { groups: { cms: false, crs: true } }, embed());
    expect(without).toMatchObject({ blocked: true, ids: expect.arrayContaining([941130]) });
    const withPlugin = run(crs, { groups: { cms: true, crs: true } }, embed());
    expect(withPlugin.blocked).toBe(false);
    expect(withPlugin.ids).not.toContain(941130);
  });
});

it('Debian CRS 3.3 is installed for these tests', () => {
  expect(existsSync(join(CRS3_DIR, 'rules', 'REQUEST-901-INITIALIZATION.conf'))).toBe(true);
});
