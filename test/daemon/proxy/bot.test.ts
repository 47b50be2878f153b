import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../../daemon/proxy/checks/bot/crawler-verifier.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import type { SiteInput } from '../../../daemon/proxy/snapshot-input.js';
import { request, site, startEdge, startOrigin, type Origin, type RunningEdge } from './helpers.js';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** A stub DNS: the real Googlebot 66.249.66.1, a forged PTR on 7.7.7.7, a slow resolver for 8.8.4.4. */
function stubResolver(calls: string[]): DnsResolver {
  const ptr: Record<string, string[]> = {
    '66.249.66.1': ['crawl-66-249-66-1.googlebot.com.'],
    '7.7.7.7': ['crawl-7-7-7-7.googlebot.com'],
    '6.6.6.6': ['host.evil.example'],
  };
  const forward: Record<string, string[]> = {
    'crawl-66-249-66-1.googlebot.com': ['66.249.66.1'],
    'crawl-7-7-7-7.googlebot.com': ['66.249.66.77'],
  };
  return {
    async reverse(ip) {
      calls.push(`reverse ${ip}`);
      if (ip === '8.8.4.4') return new Promise(() => {});
      const names = ptr[ip];
      if (!names) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return names;
    },
    async lookup(host) {
      calls.push(`lookup ${host}`);
      const addrs = forward[host.replace(/\.$/, '')];
      if (!addrs) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return addrs;
    },
  };
}

describe('bot protection through the real listener', () => {
  let origin: Origin;
  let edge: RunningEdge;
  const dnsCalls: string[] = [];
  const use = (bot: SiteInput['bot']) => edge.edge.setSnapshot(buildEdgeSnapshot({ sites: [site(origin, { bot })] }));
  const from = (ip: string, ua: string, path = '/', headers: Record<string, string> = {}) =>
    request({ port: edge.port, path, headers: { 'x-forwarded-for': ip, 'user-agent': ua, ...headers } });

  beforeAll(async () => {
    origin = await startOrigin();
    edge = await startEdge([site(origin)], {
      trustedProxies: ['127.0.0.1/32'], dnsResolver: stubResolver(dnsCalls), dnsTimeoutMs: 150, challengeBits: 10,
    });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it('does nothing while bot protection is off', async () => {
    use({ enabled: false });
    expect((await from('1.1.1.1', 'sqlmap/1.7.2#stable (https://sqlmap.org)')).status).toBe(200);
  });

  it('blocks scanners from CRS\'s list, and automated clients only when asked', async () => {
    use({ enabled: true });
    const r = await from('1.1.1.1', 'sqlmap/1.7.2#stable (https://sqlmap.org)');
    expect(r.status).toBe(403);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ group: 'bot', rule_id: 'bot-scanner', matched_data: 'sqlmap' });
    expect((await from('1.1.1.1', 'Mozilla/5.0 Nikto/2.1.6')).status).toBe(403);
    expect((await from('1.1.1.1', 'curl/8.5.0')).status).toBe(200);
    expect((await from('1.1.1.1', CHROME)).status).toBe(200);
    use({ enabled: true, blockAutomated: true });
    expect((await from('1.1.1.1', 'curl/8.5.0')).status).toBe(403);
    expect((await from('1.1.1.1', 'python-requests/2.31')).status).toBe(403);
    expect((await from('1.1.1.1', CHROME)).status).toBe(200);
  });

  it('verifies search-engine crawlers by reverse-then-forward DNS, with a cache', async () => {
    use({ enabled: true });
    expect((await from('66.249.66.1', GOOGLEBOT)).status).toBe(200);
    const fake = await from('6.6.6.6', GOOGLEBOT);
    expect(fake.status).toBe(403);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ rule_id: 'bot-fake-crawler', client_ip: '6.6.6.6' });
    // A PTR record anyone can set, whose forward lookup does not come back to the address.
    expect((await from('7.7.7.7', GOOGLEBOT)).status).toBe(403);
    // No PTR at all.
    expect((await from('5.5.5.5', GOOGLEBOT)).status).toBe(403);
    const calls = dnsCalls.length;
    expect((await from('66.249.66.1', GOOGLEBOT)).status).toBe(200);
    expect((await from('6.6.6.6', GOOGLEBOT)).status).toBe(403);
    expect(dnsCalls.length).toBe(calls);
    // DNS that never answers: let through (documented) once the lookup times out. (How soon is the
    // configured dnsTimeoutMs, a duration: not asserted on a shared box.)
    expect((await from('8.8.4.4', GOOGLEBOT)).status).toBe(200);
  });

  it('JS challenge: curl gets the page and never passes; the page\'s own script earns a cookie bound to the IP', async () => {
    use({ enabled: true, challenge: 'js' });
    const before = origin.seen.length;
    const first = await from('20.0.0.1', 'curl/8.5.0', '/post/1?c=2');
    expect(first.status).toBe(403);
    expect(first.body).toContain('Checking your browser');
    expect(origin.seen.length).toBe(before);
    // Guessing an answer does not work.
    const token = /var T = "([^"]+)"/.exec(first.body)![1];
    const guess = await from('20.0.0.1', 'curl/8.5.0', `/.well-known/wafctl/challenge?t=${encodeURIComponent(token)}&s=1&r=/`);
    expect(guess.status).toBe(403);

    // A browser runs the script: run exactly that script, with the one browser API it uses.
    const script = /<script>([\s\S]*)<\/script>/.exec(first.body)![1];
    const target = await new Promise<string>((resolve) => {
      vm.runInNewContext(script, { location: { replace: resolve }, setTimeout });
    });
    expect(target.startsWith('/.well-known/wafctl/challenge?')).toBe(true);
    const answer = await from('20.0.0.1', CHROME, target);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/post/1?c=2');
    const setCookie = answer.headers['set-cookie']![0];
    expect(setCookie).toMatch(/HttpOnly/);
    const cookie = setCookie.split(';')[0];
    const passed = await from('20.0.0.1', CHROME, '/post/1?c=2', { cookie: `x=1; ${cookie}` });
    expect(passed.status).toBe(200);
    expect(origin.seen.length).toBe(before + 1);
    // The cookie is useless from another address, and a tampered one fails.
    expect((await from('20.0.0.2', CHROME, '/', { cookie })).status).toBe(403);
    expect((await from('20.0.0.1', CHROME, '/', { cookie: cookie.slice(0, -2) + 'xx' })).status).toBe(403);
    // A verified crawler is not challenged.
    expect((await from('66.249.66.1', GOOGLEBOT)).status).toBe(200);
    // The challenge is not a block: no WAF event, access entry not blocked.
    expect(edge.sink.wafEvents.find((e) => e.request_id === first.headers['x-request-id'])).toBeUndefined();
    expect(edge.sink.accessEntries.find((e) => e.request_id === first.headers['x-request-id'])).toMatchObject({ status: 403, blocked: false });
  });

  it('never redirects off-site after a challenge', async () => {
    use({ enabled: true, challenge: 'js' });
    const page = await from('20.0.0.3', CHROME, '//evil.example/x');
    const script = /<script>([\s\S]*)<\/script>/.exec(page.body)![1];
    const target = await new Promise<string>((resolve) => vm.runInNewContext(script, { location: { replace: resolve }, setTimeout }));
    const answer = await from('20.0.0.3', CHROME, target);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/');
  });
});
