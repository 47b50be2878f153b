import { describe, expect, it } from 'vitest';
import { addIpRule, removeIpRule } from '../../../../daemon/api/v1/ip-rule-ops.js';
import { replaceGeoRules } from '../../../../daemon/api/v1/geo-rule-ops.js';
import type { IpRules } from '../../../../shared/schemas/management-api.js';

const now = new Date('2026-11-22T10:00:00Z');
const empty = (): IpRules => ({ whitelist: [], blacklist: [] });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('addIpRule', () => {
  it('stores the canonical form with its time', () => {
    const lists = empty();
    const rule = addIpRule(lists, 'blacklist', { ip: '2001:DB8:0::/48', description: 'scanner' }, 'free', now);
    expect(rule).toEqual({ ip: '2001:db8::/48', description: 'scanner', added_at: '2026-11-22T10:00:00.000Z' });
    expect(lists.blacklist).toEqual([rule]);
  });

  it('refuses the same entry twice, in either list, in any spelling', () => {
    const lists = empty();
    addIpRule(lists, 'whitelist', { ip: '10.0.0.0/8', description: '' }, 'free', now);
    expect(codeOf(() => addIpRule(lists, 'whitelist', { ip: '::ffff:10.0.0.0/104', description: '' }, 'free', now))).toBe('duplicate');
    expect(codeOf(() => addIpRule(lists, 'whitelist', { ip: '10.1.2.3/8', description: '' }, 'free', now))).toBe('validation_error');
    expect(codeOf(() => addIpRule(lists, 'blacklist', { ip: '10.0.0.0/8', description: '' }, 'free', now))).toBe('duplicate');
    expect(lists.blacklist).toHaveLength(0);
  });

  it('enforces the plan limit per list', () => {
    const lists = empty();
    for (let i = 1; i <= 5; i++) addIpRule(lists, 'blacklist', { ip: `192.0.2.${i}`, description: '' }, 'free', now);
    expect(codeOf(() => addIpRule(lists, 'blacklist', { ip: '192.0.2.6', description: '' }, 'free', now))).toBe('limit_exceeded');
    expect(lists.blacklist).toHaveLength(5);
    addIpRule(lists, 'whitelist', { ip: '192.0.2.6', description: '' }, 'free', now);
    addIpRule(lists, 'blacklist', { ip: '192.0.2.7', description: '' }, 'advanced', now);
  });

  it('keeps rules above a downgraded limit but blocks additions', () => {
    const lists = empty();
    for (let i = 1; i <= 7; i++) addIpRule(lists, 'whitelist', { ip: `198.51.100.${i}`, description: '' }, 'advanced', now);
    expect(codeOf(() => addIpRule(lists, 'whitelist', { ip: '198.51.100.99', description: '' }, 'free', now))).toBe('limit_exceeded');
    expect(lists.whitelist).toHaveLength(7);
  });
});

describe('removeIpRule', () => {
  it('removes by any spelling of the same address and 404s otherwise', () => {
    const lists = empty();
    addIpRule(lists, 'blacklist', { ip: '2001:db8::1', description: '' }, 'free', now);
    expect(codeOf(() => removeIpRule(lists, 'whitelist', '2001:db8::1'))).toBe('not_found');
    expect(codeOf(() => removeIpRule(lists, 'blacklist', 'not an ip'))).toBe('not_found');
    removeIpRule(lists, 'blacklist', '2001:DB8:0::1');
    expect(lists.blacklist).toHaveLength(0);
  });
});

describe('replaceGeoRules', () => {
  it('normalises countries and enforces the plan limit', () => {
    expect(replaceGeoRules(null, { enabled: true, mode: 'whitelist', countries: ['us', 'US', 'ca'] }, 'free')).toEqual({
      enabled: true,
      mode: 'whitelist',
      countries: ['US', 'CA'],
    });
    const six = ['US', 'CA', 'MX', 'GB', 'FR', 'DE'];
    expect(codeOf(() => replaceGeoRules(null, { enabled: true, mode: 'blacklist', countries: six }, 'free'))).toBe('limit_exceeded');
    expect(replaceGeoRules(null, { enabled: true, mode: 'blacklist', countries: six }, 'enterprise').countries).toHaveLength(6);
  });

  it('keeps the last mode and countries when disabled', () => {
    const current = { enabled: true, mode: 'whitelist' as const, countries: ['US'] };
    expect(replaceGeoRules(current, { enabled: false }, 'free')).toEqual({ enabled: false, mode: 'whitelist', countries: ['US'] });
    expect(replaceGeoRules(null, { enabled: false }, 'free')).toEqual({ enabled: false, mode: 'blacklist', countries: [] });
  });
});
