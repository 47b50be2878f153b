import { describe, expect, it } from 'vitest';
import {
  AddIpRuleBodySchema,
  AnalyticsQuerySchema,
  DeleteIpRuleBodySchema,
  normaliseCountries,
  PutGeoRulesBodySchema,
  WafLogsQuerySchema,
} from '../../../shared/schemas/management-api.js';

describe('query schemas', () => {
  it('defaults page 1, per_page 50 and period 24h', () => {
    expect(WafLogsQuerySchema.parse({})).toEqual({ page: 1, per_page: 50 });
    expect(AnalyticsQuerySchema.parse({})).toEqual({ period: '24h' });
  });

  it.each([{ per_page: '9' }, { per_page: '101' }, { page: '0' }, { page: 'two' }, { page: '1.5' }])('refuses %j', (query) => {
    expect(WafLogsQuerySchema.safeParse(query).success).toBe(false);
  });

  it('refuses an unknown period', () => {
    expect(AnalyticsQuerySchema.safeParse({ period: '1y' }).success).toBe(false);
  });

  it('takes a top list kind and a limit of 1-100 with it; without top, limit is ignored as before', () => {
    expect(AnalyticsQuerySchema.parse({ top: 'ips', limit: '25' })).toEqual({ period: '24h', top: 'ips', limit: 25 });
    expect(AnalyticsQuerySchema.parse({ period: '7d', limit: 'abc' })).toEqual({ period: '7d' });
    for (const query of [{ top: 'banana' }, { top: 'ips', limit: '0' }, { top: 'ips', limit: '101' }, { top: 'ips', limit: 'abc' }, { top: 'ips', limit: '2.5' }]) {
      expect(AnalyticsQuerySchema.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
  });
});

describe('ip rule bodies', () => {
  it('caps the description at 100 characters', () => {
    expect(AddIpRuleBodySchema.safeParse({ ip: '1.2.3.4', description: 'x'.repeat(100) }).success).toBe(true);
    expect(AddIpRuleBodySchema.safeParse({ ip: '1.2.3.4', description: 'x'.repeat(101) }).success).toBe(false);
  });

  it('needs a list type to delete', () => {
    expect(DeleteIpRuleBodySchema.safeParse({ ip: '1.2.3.4' }).success).toBe(false);
    expect(DeleteIpRuleBodySchema.safeParse({ ip: '1.2.3.4', type: 'greylist' }).success).toBe(false);
    expect(DeleteIpRuleBodySchema.safeParse({ ip: '1.2.3.4', type: 'blacklist' }).success).toBe(true);
  });
});

describe('geo rules body', () => {
  it('needs mode and countries only when enabled', () => {
    expect(PutGeoRulesBodySchema.safeParse({ enabled: false }).success).toBe(true);
    const missing = PutGeoRulesBodySchema.safeParse({ enabled: true });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => i.path.join('.'))).toEqual(['mode', 'countries']);
  });

  it('accepts assigned codes in any case and refuses others', () => {
    expect(PutGeoRulesBodySchema.safeParse({ enabled: true, mode: 'blacklist', countries: ['us', 'CA'] }).success).toBe(true);
    expect(PutGeoRulesBodySchema.safeParse({ enabled: true, mode: 'blacklist', countries: ['XX'] }).success).toBe(false);
    expect(PutGeoRulesBodySchema.safeParse({ enabled: true, mode: 'blacklist', countries: ['USA'] }).success).toBe(false);
  });

  it('normalises countries upper-case without duplicates', () => {
    expect(normaliseCountries(['us', 'US', 'ca'])).toEqual(['US', 'CA']);
  });
});
