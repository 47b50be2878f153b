// "Fix a false positive in one command", end to end: a real daemon with CRS, a benign
// WordPress post blocked at the edge, `wafctl rules exclude` as a real process (dry run, apply,
// remove), and the same requests through the edge after each step.
import { request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExclusionRemoved, ExclusionResult } from '../../shared/schemas/rule-exclusion.js';
import { stopAll, type E2eDaemon } from './daemon-harness.js';
import { startEdgeSites } from './edge-sites.js';

const SITE = 'blog.example.test';
// A post about SQL: CRS PL1 scores it (942190 union select, 942270) and blocks it.
const POST = 'To select from the table use: select name from users where id = 1 union select password from admins; that is it';

let origin: Server;
let d: E2eDaemon;
let edge: number;

beforeAll(async () => {
  ({ d, edge, origin } = await startEdgeSites([SITE, 'rate.example.test']));
}, 120_000);

afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

interface Sent { status: number; requestId: string }

function post(host: string, path: string, fields: Record<string, string>): Promise<Sent> {
  const body = new URLSearchParams(fields).toString();
  const headers = { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) rules-exclude-e2e', accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: edge, path, method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Exclude once the edge's batch has reached the store (it writes every 200 ms): not_found until then. */
async function excludeStored(id: string, ...flags: string[]) {
  for (let tries = 0; ; tries++) {
    const r = await d.wafctl('--site', SITE, '--json', 'rules', 'exclude', '--event', id, ...flags);
    if (!r.stderr.includes('not_found') || tries > 100) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const editPath = '/wp-admin/post.php?action=edit&post=7';

// One false positive's life in steps (blocked, excluded in a dry run, excluded, removed): each step
// starts from the one before, so the steps keep their order when the suite is shuffled.
describe('wafctl rules exclude', { shuffle: false }, () => {
  let blocked: Sent;

  beforeAll(async () => {
    blocked = await post(SITE, editPath, { post_title: 'SQL tips', post_content: POST });
  }, 60_000);

  it('a benign post is blocked before anything is excluded', () => {
    expect(blocked.status).toBe(403);
  });

  it('--dry-run shows the exclusion and the replay verdict and changes nothing', async () => {
    const r = await excludeStored(blocked.requestId, '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as ExclusionResult;
    expect(result).toMatchObject({ site: SITE, request_id: blocked.requestId, path: '/wp-admin/post.php', applied: false });
    expect(result.replay).toEqual({ blocked_before: true, passes: true, rules_still_matching: [] });
    expect(result.excluded.length).toBeGreaterThan(0);
    expect(result.excluded.every((t) => t.target === 'ARGS:post_content' && /^942\d{3}$/.test(t.rule_id))).toBe(true);
    expect(result.rule).toContain(`# wafctl rules exclude: request ${blocked.requestId}`);
    expect(result.rule).toMatch(/^SecRule REQUEST_FILENAME "@streq \/wp-admin\/post\.php" "id:1001\d\d,phase:1,pass,nolog,ctl:ruleRemoveTargetById=942\d{3};ARGS:post_content"$/m);
    expect(r.stderr).toContain('dry run: nothing was changed');
    const show = JSON.parse((await d.wafctl('--site', SITE, '--json', 'rules', 'show')).stdout) as { before: unknown };
    expect(show.before).toBeNull();
    expect((await post(SITE, editPath, { post_title: 'SQL tips', post_content: POST })).status).toBe(403);
  });

  it('applies it, says so in one line, and the same post passes while the content elsewhere still blocks', async () => {
    const human = await d.wafctl('--site', SITE, 'rules', 'exclude', '--event', blocked.requestId);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^request ${blocked.requestId} would now pass; rules? 942\\d{3}(, 942\\d{3})* on ARGS:post_content excluded on /wp-admin/post\\.php$`, 'm'));
    expect(human.stderr).toContain(`applied to the before file of ${SITE}`);
    const show = JSON.parse((await d.wafctl('--site', SITE, '--json', 'rules', 'show')).stdout) as { before: { lines: number } | null; load: { ok: boolean } };
    expect(show.before).not.toBeNull();
    expect(show.load.ok).toBe(true);

    expect((await post(SITE, editPath, { post_title: 'SQL tips', post_content: POST })).status).toBe(200);
    // Not vacuous: the same text on another path, or in another argument of this path, still blocks.
    expect((await post(SITE, '/wp-admin/admin-ajax.php', { post_content: POST })).status).toBe(403);
    expect((await post(SITE, editPath, { note: POST, post_content: 'hello' })).status).toBe(403);
  });

  it('refuses the same request twice, and bad references, with the documented errors', async () => {
    const again = await d.wafctl('--site', SITE, 'rules', 'exclude', '--event', blocked.requestId);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: duplicate: request [0-9a-f-]{36} already has an exclusion/);
    const unknown = await d.wafctl('--site', SITE, 'rules', 'exclude', '--event', '99999999');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: not_found: no WAF event of blog\.example\.test has the id 99999999/);
    const malformed = await d.wafctl('--site', SITE, 'rules', 'exclude', '--event', 'abc');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/^error: validation_error: event: must be a WAF event id/);
    const noEvent = await d.wafctl('--site', SITE, 'rules', 'exclude');
    expect(noEvent.code).toBe(2);
    expect(noEvent.stderr).toMatch(/^error: usage_error: --event is required/);
    // Another site's request is not this site's: not found, nothing written to the other site.
    const otherSite = await d.wafctl('--site', 'rate.example.test', 'rules', 'exclude', '--event', blocked.requestId);
    expect(otherSite.code).toBe(1);
    expect(otherSite.stderr).toMatch(/^error: not_found: /);
  });

  it('--remove takes it out again and the post is blocked again', async () => {
    const r = await d.wafctl('--site', SITE, '--json', 'rules', 'exclude', '--remove', '--event', blocked.requestId);
    expect(r.code, r.stderr).toBe(0);
    const removed = JSON.parse(r.stdout) as ExclusionRemoved;
    expect(removed.request_id).toBe(blocked.requestId);
    expect(removed.removed).toContain('ctl:ruleRemoveTargetById=');
    const show = JSON.parse((await d.wafctl('--site', SITE, '--json', 'rules', 'show')).stdout) as { before: unknown };
    expect(show.before).toBeNull();
    expect((await post(SITE, editPath, { post_title: 'SQL tips', post_content: POST })).status).toBe(403);
    const twice = await d.wafctl('--site', SITE, 'rules', 'exclude', '--remove', '--event', blocked.requestId);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^error: not_found: no exclusion in the before file of blog\.example\.test comes from /);
  });

  it('refuses a request that was rate-limited, not refused by a WAF rule', async () => {
    expect((await d.wafctl('--site', 'rate.example.test', 'protect', 'rate-limit', 'add', '/login', '--per-minute', '1')).code).toBe(0);
    const first = await post('rate.example.test', '/login', { user: 'a' });
    expect(first.status).toBe(200);
    const limited = await post('rate.example.test', '/login', { user: 'a' });
    expect(limited.status).toBe(429);
    const r = await (async () => {
      for (let tries = 0; ; tries++) {
        const out = await d.wafctl('--site', 'rate.example.test', 'rules', 'exclude', '--event', limited.requestId);
        if (!out.stderr.includes('not_found') || tries > 100) return out;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: not_excludable: request [0-9a-f-]{36} was rate-limited, not refused by a WAF rule/);
    const show = JSON.parse((await d.wafctl('--site', 'rate.example.test', '--json', 'rules', 'show')).stdout) as { before: unknown };
    expect(show.before).toBeNull();
  });
});
