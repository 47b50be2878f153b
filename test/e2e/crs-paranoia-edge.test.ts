// `wafctl site set --paranoia N --detection-paranoia N` end to end under both CRS lines: a real
// daemon (CRS 4.28 from ../shared/crs4 through --crs-dir; Debian's CRS 3.3 at its default place),
// the CLI as a real process, real requests through the edge to a real origin. Under CRS 4 the cms
// group also loads CRS's WordPress rule-exclusions plugin.
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, stopAll, type E2eDaemon } from './daemon-harness.js';

const CRS4_DIR = join(import.meta.dirname, '..', '..', '..', 'shared', 'crs4');
const SITE = 'paranoia.example.test';
const SQLI = '/?id=1%27%20OR%201=1--';
// Only rule 920273 (paranoia level 4) objects to a space in an argument.
const PL4_ONLY = '/search?q=a%20b';

let origin: Server;
let originUrl: string;

beforeAll(async () => {
  origin = createServer((req, res) => { req.resume(); req.on('end', () => res.end('origin ok')); });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
});
afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

function send(port: number, method: string, path: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: SITE, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e', accept: 'text/html' };
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A new rule set compiles in the background (the site keeps its previous one meanwhile): wait for the state, not for a time. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

async function startWithSite(crsDir: string[]): Promise<{ d: E2eDaemon; edge: number }> {
  const d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '1', ...crsDir);
  expect(start.code, start.stderr).toBe(0);
  const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number }; crs: { found: boolean } };
  expect(status.crs.found).toBe(true);
  expect((await d.wafctl('site', 'add', SITE, '--origin', originUrl)).code).toBe(0);
  const edge = status.ports.edge;
  await eventually(async () => (await send(edge, 'GET', '/')) === 200 && (await send(edge, 'GET', SQLI)) === 403, 'the site live with CRS');
  return { d, edge };
}

describe.each([
  { line: 'CRS 4.28', crsDir: ['--crs-dir', CRS4_DIR] },
  { line: 'Debian CRS 3.3', crsDir: [] as string[] },
])('paranoia under $line', ({ crsDir }) => {
  let d: E2eDaemon;
  let edge: number;
  beforeAll(async () => { ({ d, edge } = await startWithSite(crsDir)); }, 180_000);

  it('paranoia 4 blocks what only a level-4 rule catches; paranoia 1 lets it through', { timeout: 120_000 }, async () => {
    expect(await send(edge, 'GET', PL4_ONLY)).toBe(200);
    const set = await d.wafctl('site', 'set', SITE, '--paranoia', '4');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse((await d.wafctl('--json', 'site', 'show', SITE)).stdout).settings).toMatchObject({ paranoia: 4, detection_paranoia: 4 });
    await eventually(async () => (await send(edge, 'GET', PL4_ONLY)) === 403, 'paranoia 4 applied');
    expect((await d.wafctl('site', 'set', SITE, '--paranoia', '1')).code).toBe(0);
    await eventually(async () => (await send(edge, 'GET', PL4_ONLY)) === 200, 'paranoia 1 again');
  });

  it('detection paranoia 4 over paranoia 1 logs the level-4 rule and does not block on it', { timeout: 120_000 }, async () => {
    const set = await d.wafctl('site', 'set', SITE, '--paranoia', '1', '--detection-paranoia', '4');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/paranoia 1 \(detection 4\)/);
    let n = 0;
    await eventually(async () => {
      const uri = `${PL4_ONLY}&try=${++n}`;
      if ((await send(edge, 'GET', uri)) !== 200) return false;
      // The request passed (200) and its level-4 match is a WAF event all the same.
      const logs = JSON.parse((await d.wafctl('--json', '--site', SITE, 'logs', '--search', '920273', '--per-page', '100')).stdout) as { logs: Array<{ uri: string; waf_rule_id: string }> };
      return logs.logs.some((l) => l.uri.endsWith(`try=${n}`) && l.waf_rule_id === '920273');
    }, 'the level-4 rule logged on a request that passed');
    expect(await send(edge, 'GET', SQLI)).toBe(403);
  });

  it('refuses a detection level below paranoia, naming both, and changes nothing', { timeout: 60_000 }, async () => {
    const before = JSON.parse((await d.wafctl('--json', 'site', 'show', SITE)).stdout).settings;
    const below = await d.wafctl('site', 'set', SITE, '--paranoia', '4', '--detection-paranoia', '3');
    expect(below.code).toBe(1);
    expect(below.stderr).toMatch(/^error: validation_error: detection_paranoia \(3\) must be at least paranoia \(4\)/m);
    const usage = await d.wafctl('site', 'set', SITE, '--detection-paranoia', '5');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^error: usage_error: .*--detection-paranoia.*must be 1, 2, 3, 4 or same/m);
    expect(JSON.parse((await d.wafctl('--json', 'site', 'show', SITE)).stdout).settings).toEqual(before);
    const same = await d.wafctl('--json', 'site', 'set', SITE, '--paranoia', '2', '--detection-paranoia', 'same');
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout).settings).toMatchObject({ paranoia: 2, detection_paranoia: 2 });
  });
});

describe('the cms group under CRS 4.28', () => {
  it("loads CRS's WordPress rule-exclusions plugin: an admin-ajax embed CRS alone blocks gets through", { timeout: 180_000 }, async () => {
    const { d, edge } = await startWithSite(['--crs-dir', CRS4_DIR]);
    // The plugin's own test 9507793-1: CRS's XSS rule 941130 blocks it without the plugin.
    const embed = () => send(edge, 'POST', '/wp-admin/admin-ajax.php', 'action=parse-embed&shortcode=[embed]https://example.com/file.xhtml[/embed]');
    expect((await d.wafctl('site', 'set', SITE, '--group', 'cms=off')).code).toBe(0);
    await eventually(async () => (await embed()) === 403, 'CRS alone blocks the embed');
    expect((await d.wafctl('site', 'set', SITE, '--group', 'cms=on')).code).toBe(0);
    await eventually(async () => (await embed()) === 200, 'the WordPress plugin lets it through');
    expect(await send(edge, 'GET', SQLI)).toBe(403);
  });
});
