import { describe, expect, it } from 'vitest';
import { siteKeyVerdict } from '../../../support/site-key-verdict.js';
import { addSite, findSite, regenerateSiteKey, setSiteStatus, updateSite } from '../../../../daemon/store/config/sites.js';
import { createToken, revokeToken, setApiAccess, tokenForBearer } from '../../../../daemon/store/config/tokens.js';
import { WafctlError } from '../../../../shared/errors.js';
import { ConfigSchema, emptyConfig, type Config } from '../../../../shared/schemas/config.js';

const now = '2026-11-22T05:00:00.000Z';
const input = (domain: string, aliases: string[] = []) => ({ domain, origin: 'http://127.0.0.1:8081', aliases, plan: 'free' as const });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof WafctlError ? error.code : 'other';
  }
  return undefined;
}

describe('site operations', () => {
  it('adds a site with a hashed key and a valid config', () => {
    const config: Config = emptyConfig(now);
    const { site, apiKey } = addSite(config, input('example.test', ['www.example.test']), now);
    expect(site.id).toBe(1);
    expect(site.key_hash).not.toContain(apiKey);
    expect(JSON.stringify(config)).not.toContain(apiKey);
    expect(ConfigSchema.safeParse(config).success).toBe(true);
    expect(findSite(config, 'WWW.example.test')?.id).toBe(1);
  });

  it('refuses a domain or alias already used by another live site', () => {
    const config = emptyConfig(now);
    addSite(config, input('example.test', ['www.example.test']), now);
    expect(codeOf(() => addSite(config, input('example.test'), now))).toBe('duplicate');
    expect(codeOf(() => addSite(config, input('www.example.test'), now))).toBe('duplicate');
    expect(codeOf(() => addSite(config, input('other.test', ['example.test']), now))).toBe('duplicate');
    expect(codeOf(() => addSite(config, input('other.test', ['other.test']), now))).toBe('validation_error');
    addSite(config, input('other.test'), now);
    expect(codeOf(() => updateSite(config, 'other.test', { aliases: ['www.example.test'] }, now))).toBe('duplicate');
  });

  it('a deleted site frees its domain, and cannot be changed any more', () => {
    const config = emptyConfig(now);
    addSite(config, input('example.test'), now);
    setSiteStatus(config, 'example.test', 'deleted', now);
    expect(codeOf(() => setSiteStatus(config, 'example.test', 'active', now))).toBe('site_deleted');
    expect(codeOf(() => regenerateSiteKey(config, 'example.test', now))).toBe('site_deleted');
    const { site } = addSite(config, input('example.test'), now);
    expect(site.id).toBe(2);
    expect(findSite(config, 'example.test')?.id).toBe(2);
    expect(ConfigSchema.safeParse(config).success).toBe(true);
  });

  it('unknown domains are not_found', () => {
    const config = emptyConfig(now);
    expect(codeOf(() => updateSite(config, 'nope.test', { plan: 'advanced' }, now))).toBe('not_found');
  });

  it('regenerating replaces the key: the old one stops matching at once', () => {
    const config = emptyConfig(now);
    const { apiKey } = addSite(config, input('example.test'), now);
    expect(siteKeyVerdict(config, apiKey)).toBe('ok');
    const fresh = regenerateSiteKey(config, 'example.test', now);
    expect(siteKeyVerdict(config, apiKey)).toBe('invalid_api_key');
    expect(siteKeyVerdict(config, fresh)).toBe('ok');
    expect(config.sites.find((s) => s.key_hash !== null)?.domain).toBe('example.test');
    expect(siteKeyVerdict(config, 'short')).toBe('invalid_api_key_format');
  });
});

describe('tokens', () => {
  it('creates, authenticates, honours api_access and revokes', () => {
    const config = emptyConfig(now);
    const { token, clear } = createToken(config, 'vector', now);
    expect(JSON.stringify(config)).not.toContain(clear);
    expect(tokenForBearer(config, clear)).toMatchObject({ ok: true, token: { id: token.id } });
    setApiAccess(config, false);
    expect(tokenForBearer(config, clear)).toEqual({ ok: false, reason: 'api_access_disabled' });
    setApiAccess(config, true);
    revokeToken(config, token.id);
    expect(tokenForBearer(config, clear)).toEqual({ ok: false, reason: 'invalid_token' });
    expect(codeOf(() => revokeToken(config, token.id))).toBe('not_found');
  });
});
