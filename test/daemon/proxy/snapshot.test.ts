import { describe, expect, it } from 'vitest';
import { buildEdgeSnapshot, EdgeConfigError, hostKey } from '../../../daemon/proxy/snapshot.js';

const base = { id: 1, domain: 'example.test', origin: 'http://127.0.0.1:9' };

describe('buildEdgeSnapshot', () => {
  it('finds sites by domain and aliases in any case, with or without port, else the default site', () => {
    const snap = buildEdgeSnapshot({ sites: [{ ...base, aliases: ['WWW.example.test'] }, { id: 2, domain: 'b.test', origin: 'https://origin.b.test/base/', isDefault: true }] });
    expect(snap.siteForHost('EXAMPLE.test:8080')!.id).toBe(1);
    expect(snap.siteForHost('www.example.test.')!.id).toBe(1);
    expect(snap.siteForHost('other.test')!.id).toBe(2);
    expect(snap.siteForHost(undefined)!.id).toBe(2);
    const b = snap.siteForHost('b.test')!;
    expect(b.originKey).toBe('https://origin.b.test:443');
    expect(b.originBasePath).toBe('/base');
    expect(Object.isFrozen(snap)).toBe(true);
    expect(buildEdgeSnapshot({ sites: [base] }).siteForHost('other.test')).toBeNull();
  });

  it('fills defaults', () => {
    const s = buildEdgeSnapshot({ sites: [base] }).sites[0];
    expect(s).toMatchObject({ status: 'active', blockResponse: 403, geo: null, waf: { mode: 'on', paranoia: 1 }, bot: { enabled: false, challenge: 'off' } });
  });

  it.each([
    [{ sites: [{ ...base, origin: 'ftp://x' }] }, /sites\.0\.origin/],
    [{ sites: [{ ...base, ipBlacklist: ['1.2.3.4', 'nope'] }] }, /sites\.0\.ipBlacklist\.1/],
    [{ sites: [{ ...base, rateLimits: [{ path: 'no-slash', perMinute: 5 }] }] }, /rateLimits\.0\.path/],
    [{ sites: [{ ...base, rateLimits: [{ path: '/x', perMinute: 0 }] }] }, /perMinute/],
    [{ sites: [{ ...base, geo: { enabled: true, mode: 'both', countries: [] } }] }, /geo\.mode/],
    [{ sites: [{ ...base, blockResponse: 500 }] }, /blockResponse/],
    [{ sites: [{ ...base, waf: { mode: 'on', paranoia: 5 } }] }, /paranoia/],
    [{ sites: [base, { ...base, id: 2 }] }, /already served by site 1/],
    [{ sites: [{ ...base, isDefault: true }, { ...base, id: 2, domain: 'c.test', isDefault: true }] }, /already the default/],
    [{ sites: [{ ...base, tls: { cert: 'not a pem', key: 'nope' } }] }, /tls: certificate or key unusable/],
    [{ nope: true }, /sites/],
  ])('rejects bad input with the field named (%#)', (input, message) => {
    expect(() => buildEdgeSnapshot(input)).toThrow(EdgeConfigError);
    expect(() => buildEdgeSnapshot(input)).toThrow(message);
  });

  it('normalises Host values', () => {
    expect(hostKey('[::1]:8080')).toBe('[::1]');
    expect(hostKey('A.B.')).toBe('a.b');
  });
});
