import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countryOf } from '../../../daemon/proxy/checks/geo.js';
import { parseIp } from '../../../daemon/proxy/ip-set.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import type { SiteInput } from '../../../daemon/proxy/snapshot-input.js';
import { request, site, startEdge, startOrigin, type Origin, type RunningEdge } from './helpers.js';

// Loopback is a trusted proxy here, so X-Forwarded-For gives each request a public client address.
const TRUST_LOOPBACK = { trustedProxies: ['127.0.0.1/32', '::1/128'] };

describe('edge checks through the real listener', () => {
  let origin: Origin;
  let edge: RunningEdge;
  const use = (extra: Partial<SiteInput>) => edge.edge.setSnapshot(buildEdgeSnapshot({ sites: [site(origin, extra)] }));
  const from = (ip: string, path = '/', headers: Record<string, string> = {}) =>
    request({ port: edge.port, path, headers: { 'x-forwarded-for': ip, ...headers } });

  beforeAll(async () => {
    origin = await startOrigin();
    edge = await startEdge([site(origin)], TRUST_LOOPBACK);
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it('blocks blacklisted IPv4, IPv6 and CIDR clients with a 403 page and a WAF event', async () => {
    use({ ipBlacklist: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'] });
    const before = origin.seen.length;
    const r = await from('198.51.100.99', '/x?y=1', { 'user-agent': 'UA-1', referer: 'https://ref.test/' });
    expect(r.status).toBe(403);
    expect(r.body).toContain(r.headers['x-request-id']);
    expect((await from('2001:db8:1::5')).status).toBe(403);
    expect((await from('203.0.113.7')).status).toBe(403);
    expect((await from('203.0.113.8')).status).toBe(200);
    expect(origin.seen.length).toBe(before + 1);
    const event = edge.sink.wafEvents.find((e) => e.request_id === r.headers['x-request-id'])!;
    expect(event).toMatchObject({
      group: 'ip', rule_id: 'ip-blacklist', action: 'block', client_ip: '198.51.100.99', uri: '/x?y=1', method: 'GET',
      host: 'example.test', site_id: 1, severity: 'CRITICAL', user_agent: 'UA-1', referer: 'https://ref.test/',
    });
    expect(typeof event.country).toBe('string');
    const access = edge.sink.accessEntries.find((e) => e.request_id === r.headers['x-request-id'])!;
    expect(access).toMatchObject({ status: 403, blocked: true });
  });

  it('lets a whitelisted client skip every later check (even the blacklist)', async () => {
    use({
      ipWhitelist: ['192.0.2.0/24'], ipBlacklist: ['192.0.2.1'],
      pageProtection: [{ path: '/wp-admin', allow: ['10.0.0.1'] }], rateLimits: [{ path: '/', perMinute: 1 }],
      bot: { enabled: true, challenge: 'js' },
    });
    for (let i = 0; i < 3; i++) expect((await from('192.0.2.1', '/wp-admin/', { 'user-agent': 'sqlmap/1.7' })).status).toBe(200);
  });

  it('applies geo rules in whitelist and blacklist mode', async () => {
    const us = '8.8.8.8', other = '2a00:1450:4001::1';
    const usCountry = countryOf(parseIp(us)!), otherCountry = countryOf(parseIp(other)!);
    expect(usCountry).toBe('US');
    expect(otherCountry).not.toBe('');
    expect(otherCountry).not.toBe(usCountry);
    use({ geo: { enabled: true, mode: 'whitelist', countries: ['us'] } });
    expect((await from(us)).status).toBe(200);
    const blocked = await from(other);
    expect(blocked.status).toBe(403);
    expect(edge.sink.wafEvents.find((e) => e.request_id === blocked.headers['x-request-id'])).toMatchObject({ group: 'geo', country: otherCountry });
    // Loopback and private networks are in no country: a whitelist leaves them alone (health
    // checks, WP-Cron's loopback, LAN tools); any other address with no country is not on it.
    for (const local of ['10.1.2.3', '127.0.0.1', '192.168.1.5', '172.16.0.9', '::1', 'fd00::7']) {
      expect((await from(local)).status, local).toBe(200);
    }
    expect(countryOf(parseIp('192.0.2.1')!)).toBe('');
    expect((await from('192.0.2.1')).status).toBe(403);
    use({ geo: { enabled: true, mode: 'blacklist', countries: ['US'] } });
    expect((await from(us)).status).toBe(403);
    expect((await from(other)).status).toBe(200);
    expect((await from('10.1.2.3')).status).toBe(200);
    use({ geo: { enabled: false, mode: 'blacklist', countries: ['US'] } });
    expect((await from(us)).status).toBe(200);
  });

  it('admits only the protected path\'s own IPs, matching by prefix in normal form', async () => {
    use({ pageProtection: [{ path: '/wp-admin', allow: ['5.5.5.5'] }, { path: '/wp-admin/public/', allow: ['0.0.0.0/0'] }] });
    for (const path of ['/wp-admin', '/wp-admin/', '/wp-admin/users.php?x', '/WP-Admin/', '/./wp-admin/', '//wp-admin', '/x/../wp-admin', '/%77p-admin/']) {
      expect({ path, status: (await from('6.6.6.6', path)).status }).toEqual({ path, status: 403 });
    }
    expect((await from('5.5.5.5', '/wp-admin/users.php')).status).toBe(200);
    expect((await from('6.6.6.6', '/wp-administrator')).status).toBe(200);
    // The most specific protected path applies.
    expect((await from('6.6.6.6', '/wp-admin/public/x')).status).toBe(200);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ group: 'page', rule_id: 'page-protection' });
  });

  it('answers with the site\'s block response: 404 page, or drop (reset, no bytes)', async () => {
    use({ ipBlacklist: ['9.9.9.9'], blockResponse: 404 });
    const r = await from('9.9.9.9');
    expect(r.status).toBe(404);
    use({ ipBlacklist: ['9.9.9.9'], blockResponse: 'drop' });
    await expect(from('9.9.9.9')).rejects.toMatchObject({ code: 'ECONNRESET' });
    // Raw socket: not one byte comes back.
    const bytes = await new Promise<{ n: number; error?: string }>((resolve) => {
      const s = net.connect(edge.port, '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: example.test\r\nX-Forwarded-For: 9.9.9.9\r\n\r\n'));
      let n = 0;
      s.on('data', (c) => (n += c.length));
      s.on('error', (e: NodeJS.ErrnoException) => resolve({ n, error: e.code }));
      s.on('close', () => resolve({ n }));
    });
    expect(bytes).toEqual({ n: 0, error: 'ECONNRESET' });
    expect(edge.sink.accessEntries.at(-1)).toMatchObject({ status: 444, blocked: true });
  });

  it('rate-limits exactly: limit 10, exactly 10 of 50 concurrent requests pass, the rest get 429 + Retry-After', async () => {
    use({ rateLimits: [{ path: '/', perMinute: 1000 }, { path: '/api/login', perMinute: 10 }], blockResponse: 'drop' });
    // Windows are wall-clock minutes: keep the burst inside one.
    const toBoundary = 60_000 - (Date.now() % 60_000);
    if (toBoundary < 5000) await new Promise((r) => setTimeout(r, toBoundary + 50));
    const replies = await Promise.all(Array.from({ length: 50 }, () => from('4.4.4.4', '/api/login')));
    const ok = replies.filter((r) => r.status === 200);
    const limited = replies.filter((r) => r.status === 429);
    expect(ok.length).toBe(10);
    expect(limited.length).toBe(40);
    for (const r of limited) {
      const after = Number(r.headers['retry-after']);
      expect(after).toBeGreaterThanOrEqual(1);
      expect(after).toBeLessThanOrEqual(60);
    }
    // Another client has its own counter; another path under "/" counts against "/".
    expect((await from('4.4.4.5', '/api/login')).status).toBe(200);
    expect((await from('4.4.4.4', '/api/other')).status).toBe(200);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ group: 'rate-limit', severity: 'WARNING' });
  });
});
