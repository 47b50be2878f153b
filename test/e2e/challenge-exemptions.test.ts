// New user's tour, M5: the JS challenge must not break WordPress. With `protect bot on --challenge js`,
// a client that cannot run JavaScript (curl's User-Agent, as feed readers, WP-Cron and webhooks are)
// still reaches feeds, the REST API, cron, admin-ajax.php, robots.txt, sitemaps, uploads and static
// assets; everything else gets the challenge page; `--exempt PATH` adds a site's own paths.
// A real daemon and real requests through its edge.
import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

const SITE = 'wp.test';
let d: E2eDaemon;
let origin: Server;
let edge: number;

function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: edge, path, agent: false, headers: { host: SITE, 'user-agent': 'curl/7.88.1' } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** 'origin' when the request reached the origin, 'challenged' for the challenge page. */
async function fate(path: string): Promise<string> {
  const { status, body } = await get(path);
  if (status === 200 && body === 'origin ok') return 'origin';
  return status === 403 && /challenge/i.test(body) ? 'challenged' : `${status}`;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

beforeAll(async () => {
  origin = createServer((_req, res) => res.end('origin ok'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  edge = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout).ports.edge;
  const added = await d.wafctl('site', 'add', SITE, '--origin', `http://127.0.0.1:${(origin.address() as { port: number }).port}`);
  expect(added.code, added.stderr).toBe(0);
  const on = await d.wafctl('--site', SITE, 'protect', 'bot', 'on', '--challenge', 'js');
  expect(on.code, on.stderr).toBe(0);
  await until(async () => (await fate('/')) === 'challenged', 'the challenge is live');
}, 120_000);
afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

describe('the JS challenge leaves WordPress machinery alone', { timeout: 60_000 }, () => {
  it.each([
    '/feed/', '/comments/feed/', '/category/news/feed/atom/', '/wp-json/wp/v2/posts', '/WP-JSON/wp/v2/posts', '/wp-cron.php?doing_wp_cron=1',
    '/wp-admin/admin-ajax.php', '/robots.txt', '/wp-sitemap.xml', '/wp-sitemap-posts-post-1.xml', '/sitemap_index.xml',
    '/wp-content/uploads/2026/11/a.jpg', '/wp-includes/css/dist/block-library/style.min.css', '/wp-content/themes/t/app.js?ver=6.4',
  ])('%s reaches the origin', async (path) => {
    expect(await fate(path)).toBe('origin');
  });

  it.each([
    '/', '/hello-world/', '/wp-login.php', '/wp-admin/', '/?feed=rss2',
    // PHP runs /wp-login.php/x.css as wp-login.php (PATH_INFO): not a stylesheet.
    '/wp-login.php/x.css', '/wp-login.php/feed/', '/wp-json/../wp-login.php', '/wp-json/%2e%2e/wp-login.php', '/feed/../wp-login.php',
  ])('%s still gets the challenge', async (path) => {
    expect(await fate(path)).toBe('challenged');
  });
});

describe('protect bot --exempt PATH', { timeout: 60_000 }, () => {
  it('adds a path of the site, shows it, and --unexempt takes it away', async () => {
    expect(await fate('/wc-api/stripe')).toBe('challenged');
    const add = await d.wafctl('--site', SITE, 'protect', 'bot', '--exempt', '/wc-api', '--exempt', '/hooks/');
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/^exempt\s+\/wc-api, \/hooks\/$/m);
    expect(add.stdout).toMatch(/^always exempt\s+\/wp-json, \/wp-cron\.php, \/wp-admin\/admin-ajax\.php, /m);
    await until(async () => (await fate('/wc-api/stripe')) === 'origin', '/wc-api exempt');
    expect(await fate('/hooks/paypal')).toBe('origin');
    expect(await fate('/wc-apix')).toBe('challenged');
    const shown = JSON.parse((await d.wafctl('--json', '--site', SITE, 'protect', 'bot')).stdout);
    expect(shown).toEqual({ enabled: true, challenge: 'js', challenge_exempt: ['/wc-api', '/hooks/'] });

    const remove = await d.wafctl('--site', SITE, 'protect', 'bot', '--unexempt', '/wc-api');
    expect(remove.code, remove.stderr).toBe(0);
    await until(async () => (await fate('/wc-api/stripe')) === 'challenged', '/wc-api challenged again');
    expect(JSON.parse((await d.wafctl('--json', '--site', SITE, 'protect', 'bot')).stdout).challenge_exempt).toEqual(['/hooks/']);
  });

  it('refuses a bad path or an unknown one with a clear error, and changes nothing', async () => {
    const before = (await d.wafctl('--json', '--site', SITE, 'protect', 'bot')).stdout;
    const relative = await d.wafctl('--site', SITE, 'protect', 'bot', '--exempt', 'wc-api');
    expect(relative.code).toBe(1);
    expect(relative.stderr).toBe('error: validation_error: --exempt wc-api: must start with /\nhint: give a path prefix such as /wc-api or /webhooks/\n');
    const query = await d.wafctl('--site', SITE, 'protect', 'bot', '--exempt', '/x?y=1');
    expect(query.code).toBe(1);
    const unknown = await d.wafctl('--site', SITE, 'protect', 'bot', '--unexempt', '/not-there');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: usage_error: \/not-there is not an exempt path of wp\.test\nhint: /);
    expect((await d.wafctl('--json', '--site', SITE, 'protect', 'bot')).stdout).toBe(before);
  });
});
