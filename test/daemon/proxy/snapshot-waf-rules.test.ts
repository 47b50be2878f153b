// The snapshot carries each site's engine settings (paranoia, thresholds, groups, user files) as
// one frozen object per distinct combination, built from the stored site by from-config.ts, and
// announces them so the engine compiles new combinations when the configuration changes.
import { describe, expect, it } from 'vitest';
import { edgeConfigFromSites } from '../../../daemon/proxy/from-config.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import { defaultRuleSettings, onRuleSettingsAnnounced, type WafRuleSettings } from '../../../daemon/rule-sets/rule-settings.js';
import { defaultProtection, type StoredSite } from '../../../shared/schemas/site.js';

const site = (id: number, waf: object = {}) => ({ id, domain: `s${id}.test`, origin: 'http://127.0.0.1:9', waf });

describe('snapshot waf.rules', () => {
  it('defaults to the default settings at paranoia 1', () => {
    const rules = buildEdgeSnapshot({ sites: [site(1)] }).sites[0].waf.rules;
    expect(rules).toMatchObject({ paranoia: 1, inboundThreshold: 5, outboundThreshold: 4, groups: { cms: true, crs: true }, before: null, after: null });
    expect(rules.key).toBe(defaultRuleSettings(1).key);
    expect(Object.isFrozen(rules)).toBe(true);
  });

  it('shares one object between sites with equal settings, and tells different ones apart', () => {
    const after = { name: '/etc/r.conf', text: 'SecAction "id:1000001,phase:1,pass,nolog"' };
    const snap = buildEdgeSnapshot({ sites: [
      site(1, { paranoia: 2, inboundThreshold: 10, rulesAfter: after }),
      site(2, { paranoia: 2, inboundThreshold: 10, rulesAfter: { ...after } }),
      site(3, { paranoia: 2, inboundThreshold: 10, rulesAfter: { ...after, text: after.text + '\n' } }),
      site(4, { paranoia: 2, inboundThreshold: 10, groups: { cms: false, crs: true }, rulesAfter: after }),
      site(5, { mode: 'detect', paranoia: 2, inboundThreshold: 10, rulesAfter: after }),
    ] });
    const [a, b, c, d, e] = snap.sites.map((s) => s.waf.rules);
    expect(b).toBe(a);
    expect(e).toBe(a); // the mode is not part of what the engine compiles
    expect(c.key).not.toBe(a.key);
    expect(d.key).not.toBe(a.key);
    expect(a).toMatchObject({ paranoia: 2, inboundThreshold: 10, after });
  });

  it('announces the settings of every build', () => {
    const heard: Array<readonly WafRuleSettings[]> = [];
    const listener = (list: readonly WafRuleSettings[]) => { heard.push(list); };
    onRuleSettingsAnnounced(listener);
    heard.length = 0; // the replay of an earlier build
    buildEdgeSnapshot({ sites: [site(1, { paranoia: 3 }), site(2, { paranoia: 3 }), site(3)] });
    expect(heard).toHaveLength(1);
    expect(heard[0].map((s) => s.paranoia).sort()).toEqual([1, 3]);
  });

  it('refuses bad values naming the field', () => {
    expect(() => buildEdgeSnapshot({ sites: [site(1, { inboundThreshold: 0 })] })).toThrow(/sites\.0\.waf\.inboundThreshold/);
    expect(() => buildEdgeSnapshot({ sites: [site(1, { groups: { cms: true } })] })).toThrow(/sites\.0\.waf\.groups\.crs/);
  });
});

describe('edgeConfigFromSites: protection settings', () => {
  it('maps thresholds, groups, user files, block response and policies from the stored site', () => {
    const protection = defaultProtection();
    protection.waf = { ...protection.waf, paranoia: 3, inbound_threshold: 12, outbound_threshold: 7, groups: { cms: false, crs: true }, on_error: 'open',
      rules_before: { path: '/etc/b.conf', text: '# b', sha256: 'a'.repeat(64), set_at: '2026-11-22T00:00:00.000Z' }, rules_after: null };
    protection.block_response = '404';
    protection.body_over_limit = 'pass';
    const stored: StoredSite = {
      id: 7, account_id: 1, domain: 'x.test', aliases: [], origin: 'http://127.0.0.1:9', plan: 'free', status: 'active', key_hash: null, key_created_at: null,
      created_at: '2026-11-22T00:00:00.000Z', updated_at: '2026-11-22T00:00:00.000Z', ip_rules: { whitelist: [], blacklist: [] }, geo_rules: null, protection,
    };
    const compiled = buildEdgeSnapshot(edgeConfigFromSites([stored])).sites[0];
    expect(compiled.blockResponse).toBe(404);
    expect(compiled.bodyOverLimit).toBe('pass');
    expect(compiled.waf).toMatchObject({ mode: 'on', paranoia: 3, onError: 'open' });
    expect(compiled.waf.rules).toMatchObject({ paranoia: 3, inboundThreshold: 12, outboundThreshold: 7, groups: { cms: false, crs: true }, before: { name: '/etc/b.conf', text: '# b' }, after: null });
  });
});
