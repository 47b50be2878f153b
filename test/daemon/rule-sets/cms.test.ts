import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistries } from '../../../daemon/engine/default-registries.js';
import { Waf } from '../../../daemon/engine/waf.js';
import type { RequestInspector, Verdict } from '../../../daemon/proxy/inspector.js';
import { request, site, startEdge, startOrigin, type Origin, type RunningEdge } from '../proxy/helpers.js';

// The cms rule group, loaded by the real SecLang engine, through the real edge. The adapter
// below (InspectedRequest -> engine transaction -> Verdict) is the thin glue the daemon uses.

const RULES = fileURLToPath(new URL('../../../daemon/rule-sets/cms/wordpress.conf', import.meta.url));

function engineInspector(waf: Waf): RequestInspector {
  return {
    wantsBody: () => true,
    inspect(req): Verdict | null {
      const tx = waf.newTransaction({
        remoteAddr: req.clientAddr, remotePort: req.clientPort, serverAddr: req.serverAddr, serverPort: req.serverPort,
        method: req.method, uri: req.uri, protocol: req.protocol,
        headers: req.headers.map(([k, v]) => [k, Buffer.from(v).toString('latin1')] as [string, string]), body: req.body ?? undefined,
      });
      const interruption = tx.processRequest();
      const counters = tx.tx.entries().map((e) => e.key).filter((k) => k.startsWith('wafctl_counter_')).map((k) => k.slice('wafctl_counter_'.length));
      const matches = tx.matches.filter((m) => m.msg).map((m) => ({
        ruleId: String(m.id), group: 'cms', file: m.file, msg: m.msg, severity: (m.severity || 'NOTICE') as 'CRITICAL', matchedVar: m.matchedVarName, matchedData: m.data,
      }));
      if (!interruption && !matches.length && !counters.length) return null;
      return { block: interruption !== null, matches, counters };
    },
  };
}

const XMLRPC = (method: string) => `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params></params></methodCall>`;

describe('cms rule group (WordPress) through the edge and the SecLang engine', () => {
  let origin: Origin;
  let edge: RunningEdge;
  const get = (path: string, headers: Record<string, string> = {}) => request({ port: edge.port, path, headers });
  const post = (path: string, body: string, type = 'application/x-www-form-urlencoded', headers: Record<string, string> = {}) =>
    request({ port: edge.port, path, method: 'POST', body, headers: { 'content-type': type, ...headers } });

  beforeAll(async () => {
    const waf = Waf.load([{ text: 'SecRuleEngine On\nSecRequestBodyAccess On', name: '<base>' }, { file: RULES }], { registries: defaultRegistries });
    origin = await startOrigin();
    edge = await startEdge([site(origin, { ruleCounters: { wp_login: 3 } })], { inspector: engineInspector(waf) });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it.each([
    ['/wp-config.php', '200120'], ['/wp-config.php.bak', '200120'], ['/wp-config.php~', '200120'], ['/blog/wp-config.old', '200120'],
    ['/WP-CONFIG.PHP', '200120'], ['/x/..%2fwp-config.php', '200120'],
    ['/.env', '200121'], ['/app/.env.production', '200121'],
    ['/.git/config', '200122'], ['/.git', '200122'],
    ['/wp-content/debug.log', '200123'], ['/readme.html', '200124'],
    ['/wp-admin/install.php', '200125'], ['/wp-admin/upgrade.php?step=1', '200125'], ['/wp-admin/setup-config.php', '200125'],
    ['/wp-content/uploads/2024/05/shell.php', '200130'], ['/wp-content/uploads/x.phtml', '200130'], ['/wp-content/uploads/a.php.jpg', '200130'],
    ['/?author=1', '200110'], ['/?author=%20%32', '200110'],
    ['/wp-json/wp/v2/users', '200111'], ['/wp-json/wp/v2/users/1', '200111'], ['/?rest_route=/wp/v2/users', '200112'],
  ])('blocks %s (rule %s)', async (path, ruleId) => {
    const r = await get(path);
    expect(r.status).toBe(403);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ rule_id: ruleId, group: 'cms', action: 'block', request_id: r.headers['x-request-id'] });
  });

  it.each([
    '/', '/wp-content/uploads/2024/05/photo.jpg', '/wp-admin/edit.php?author=1', '/?author=admin-notes', '/wp-json/wp/v2/posts',
    '/blog/environment', '/github/.gitignore-notes', '/wp-admin/', '/wp-login.php', '/wp-content/themes/x/readme.txt',
  ])('lets %s through', async (path) => {
    expect((await get(path)).status).toBe(200);
  });

  it('lets the users endpoint through with a login cookie or an Authorization header', async () => {
    expect((await get('/wp-json/wp/v2/users', { cookie: 'wordpress_logged_in_abc=x' })).status).toBe(200);
    expect((await get('/wp-json/wp/v2/users/me', { authorization: 'Basic dTpw' })).status).toBe(200);
  });

  it('blocks XML-RPC system.multicall and pingback.ping, not other calls', async () => {
    expect((await post('/xmlrpc.php', XMLRPC('system.multicall'), 'text/xml')).status).toBe(403);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ rule_id: '200101' });
    expect((await post('/xmlrpc.php', XMLRPC('pingback.ping'), 'text/xml')).status).toBe(403);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ rule_id: '200102' });
    expect((await post('/xmlrpc.php', XMLRPC('wp.getPosts'), 'text/xml')).status).toBe(200);
  });

  it('feeds login attempts to the rate limiter: the 4th POST in a minute from one address gets 429', async () => {
    const toBoundary = 60_000 - (Date.now() % 60_000);
    if (toBoundary < 3000) await new Promise((r) => setTimeout(r, toBoundary + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post('/wp-login.php', 'log=admin&pwd=guess' + i)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ group: 'rate-limit', rule_id: 'counter:wp_login' });
    // GETs of the login page do not count.
    expect((await get('/wp-login.php')).status).toBe(200);
  });
});
