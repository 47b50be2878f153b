// Per-site rule sets: one compiled Waf per combination of settings, shared, built off the request
// path (the site keeps its previous rules meanwhile), and a user file that does not load leaves
// its site on the same settings without the file, with the reason logged.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findCrs, RuleGroups } from '../../../daemon/rule-sets/rule-groups.js';
import { defaultRuleSettings, ruleSettings, type WafRuleSettingsInput } from '../../../daemon/rule-sets/rule-settings.js';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import type { InspectedRequest } from '../../../daemon/proxy/inspector.js';

const base: WafRuleSettingsInput = { paranoia: 1, inboundThreshold: 5, outboundThreshold: 4, groups: { cms: true, crs: true }, before: null, after: null };
const MARKER_RULE = { name: '/etc/wafctl/marker.conf', text: 'SecRule ARGS "@contains wafctl-marker" "id:1000001,phase:2,deny,status:403,log,msg:\'marker\'"\n' };

// Compiled combinations are cached for the whole process (shared by every RuleGroups, by design),
// so a test about what happens before a combination is compiled must name one no other test (nor
// an earlier run of itself) has: a trailing comment with a fresh id changes the key, not the rules.
const fresh = (file: { name: string; text: string }) => ({ name: file.name, text: `${file.text}# ${randomUUID()}\n` });
const EMPTY_FILE = { name: '/etc/wafctl/empty.conf', text: '' };

/** Lets queued background compiles run (one per event-loop turn). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

function request(uri: string, rules: ReturnType<typeof ruleSettings>, siteId = 1): InspectedRequest {
  return {
    requestId: 'r', method: 'GET', uri, protocol: 'HTTP/1.1', headers: [['Host', 'shop.example.test'], ['User-Agent', 'Mozilla/5.0 test']],
    clientAddr: '203.0.113.9', clientPort: 40000, serverAddr: '127.0.0.1', serverPort: 8080, body: null,
    site: { id: siteId, domain: 'shop.example.test', mode: 'on', paranoia: rules.paranoia, rules },
  };
}

describe('RuleGroups (cms group only: no CRS here)', () => {
  it('builds each combination once, shared by equal settings, and never on the request path', async () => {
    const groups = new RuleGroups(null, { prepareAnnounced: false });
    const fallback = groups.forParanoia(1);
    const marker = fresh(MARKER_RULE);
    const withMarker = ruleSettings({ ...base, after: marker });
    // First request: not compiled yet, so the default rules answer, and a compile is queued.
    expect(groups.forSite(1, withMarker)).toBe(fallback);
    await settle();
    const compiled = groups.forSite(1, withMarker);
    expect(compiled).not.toBe(fallback);
    // Another site, another object with the same values: the same compiled set.
    expect(groups.forSite(2, ruleSettings({ ...base, after: marker }))).toBe(compiled);
    expect(new RuleGroups(null, { prepareAnnounced: false }).load(withMarker)).toMatchObject({ ok: true, waf: compiled });
  });

  it('keeps a site on its previous rule set while the new one is built', async () => {
    const groups = new RuleGroups(null, { prepareAnnounced: false });
    groups.forParanoia(1);
    const first = ruleSettings({ ...base, inboundThreshold: 7 });
    groups.prepare(first);
    await settle();
    const old = groups.forSite(5, first);
    const next = ruleSettings({ ...base, inboundThreshold: 8, after: fresh(EMPTY_FILE) });
    expect(groups.forSite(5, next)).toBe(old);
    await settle();
    const built = groups.load(next); // compiled in the background by now (a cache hit)
    expect(built.ok).toBe(true);
    const now = groups.forSite(5, ruleSettings({ ...base, inboundThreshold: 8, after: next.after }));
    expect(now).not.toBe(old);
    expect(now).toBe(built.ok && built.waf);
  });

  it('runs the settings without the user file when it does not load, and logs why once', async () => {
    const logged: string[] = [];
    const groups = new RuleGroups(null, { prepareAnnounced: false, log: (m) => logged.push(m) });
    groups.forParanoia(1);
    const broken = ruleSettings({ ...base, groups: { cms: false, crs: true }, after: fresh({ name: '/etc/wafctl/broken.conf', text: 'SecRule ARGS "@nosuchop x" "id:1000002,phase:2,deny"\n' }) });
    groups.forSite(1, broken);
    await settle();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('/etc/wafctl/broken.conf:1: unknown operator @nosuchop');
    const waf = groups.forSite(1, broken);
    const withoutFile = groups.load(ruleSettings({ ...base, groups: { cms: false, crs: true } }));
    expect(withoutFile.ok && withoutFile.waf).toBe(waf);
  });

  it('honours groups and user files in what it blocks', async () => {
    const groups = new RuleGroups(null, { prepareAnnounced: false });
    groups.forParanoia(1);
    const inspector = createEngineInspector(groups);
    const plain = ruleSettings(base);
    const noCms = ruleSettings({ ...base, groups: { cms: false, crs: true } });
    const marker = ruleSettings({ ...base, after: MARKER_RULE });
    for (const s of [plain, noCms, marker]) groups.prepare(s);
    await settle();
    const blocked = async (uri: string, s: typeof plain) => (await inspector.inspect(request(uri, s)))?.block ?? false;
    expect(await blocked('/wp-config.php.bak', plain)).toBe(true);
    expect(await blocked('/wp-config.php.bak', noCms)).toBe(false);
    expect(await blocked('/?q=wafctl-marker', plain)).toBe(false);
    expect(await blocked('/?q=wafctl-marker', marker)).toBe(true);
  });
});

const crs = findCrs('/usr/share/modsecurity-crs');
describe.skipIf(crs === null || !existsSync('/usr/share/modsecurity-crs/rules'))('RuleGroups with the Core Rule Set (Debian modsecurity-crs; .ci/run installs it)', () => {
  it('applies the site anomaly threshold: a high one lets SQL injection through, the default blocks it', { timeout: 60_000 }, async () => {
    const groups = new RuleGroups(crs, { prepareAnnounced: false });
    const inspector = createEngineInspector(groups);
    const strict = defaultRuleSettings(1);
    const lax = ruleSettings({ ...base, inboundThreshold: 1000 });
    expect(groups.load(strict).ok).toBe(true);
    expect(groups.load(lax).ok).toBe(true);
    const sqli = "/?id=1'%20OR%201=1--";
    const a = await inspector.inspect(request(sqli, strict));
    const b = await inspector.inspect(request(sqli, lax, 2));
    expect(a?.block).toBe(true);
    expect(b?.block).toBe(false);
    expect(b?.matches.some((m) => m.ruleId === '942100')).toBe(true); // still matched and logged
  });
});

describe('RuleGroups cache bound', () => {
  it('keeps at most 32 compiled combinations, dropping the least recently named, never the default', async () => {
    const groups = new RuleGroups(null, { prepareAnnounced: false });
    const first = groups.forParanoia(1);
    const settings = Array.from({ length: 40 }, (_, i) => ruleSettings({ ...base, groups: { cms: false, crs: true }, inboundThreshold: 1000 + i }));
    const compiled = settings.map((s) => { const o = groups.load(s); if (!o.ok) throw new Error(o.error); return o.waf; });
    // The last one is still cached (same Waf again); the first was dropped (compiled anew).
    const last = groups.load(settings[39]);
    expect(last.ok && last.waf).toBe(compiled[39]);
    const again = groups.load(settings[0]);
    expect(again.ok && again.waf).not.toBe(compiled[0]);
    expect(groups.forParanoia(1)).toBe(first);
  });
});
