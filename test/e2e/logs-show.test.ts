// "Explain a block", end to end: a real daemon, real requests through the edge, and
// `wafctl logs show` as a real process with the request id the block page printed.
import { request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WafRequestDetail } from '../../shared/schemas/waf-request.js';
import { stopAll, type E2eDaemon } from './daemon-harness.js';
import { startEdgeSites } from './edge-sites.js';

let origin: Server;
let d: E2eDaemon;
let edge: number;

beforeAll(async () => {
  ({ d, edge, origin } = await startEdgeSites(['shop.example.test', 'watch.example.test']));
  expect((await d.wafctl('--site', 'watch.example.test', 'site', 'set', 'watch.example.test', '--mode', 'detect')).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

interface Sent { status: number; requestId: string; body: string }

function send(host: string, path: string, opts: { body?: string; cookie?: string } = {}): Promise<Sent> {
  const headers: Record<string, string> = { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) logs-show-e2e', accept: 'text/html' };
  if (opts.body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  if (opts.cookie !== undefined) headers.cookie = opts.cookie;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: edge, path, method: opts.body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']), body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/**
 * `logs show` once the edge's batches have reached the store (it writes every 200 ms): the WAF
 * events first, and, when `complete` asks for more, the rest (the access entry, which carries the
 * status, comes in a batch of its own and may land later).
 */
async function shown(host: string, id: string, complete: (detail: WafRequestDetail) => boolean = () => true): Promise<WafRequestDetail> {
  for (let tries = 0; ; tries++) {
    const r = await d.wafctl('--site', host, '--json', 'logs', 'show', id);
    if (r.code === 0 && complete(JSON.parse(r.stdout) as WafRequestDetail)) return JSON.parse(r.stdout) as WafRequestDetail;
    if (tries > 100 || (r.code !== 0 && !r.stderr.includes('not_found'))) throw new Error(`logs show ${id}: exit ${r.code}: ${r.stderr || 'incomplete'}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The blocked request's whole story: its events and its status. */
const withStatus = (detail: WafRequestDetail) => detail.status !== null;

describe('wafctl logs show', () => {
  let blocked: Sent;
  let detail: WafRequestDetail;

  beforeAll(async () => {
    blocked = await send('shop.example.test', '/contact/?s=Se%C3%A1n+%3Cscript%3Ealert(1)%3C%2Fscript%3E', {
      body: 'your-message=hello&pwd=%3Cscript%3Ealert(%22hunter2-secret%22)%3C%2Fscript%3E',
      cookie: 'wp_session=<script>alert("cookie-secret-value")</script>',
    });
    detail = await shown('shop.example.test', blocked.requestId, withStatus);
  }, 60_000);

  it('explains a block found by the request id on the block page', () => {
    expect(blocked.status).toBe(403);
    expect(blocked.body).toContain(blocked.requestId);
    expect(detail).toMatchObject({
      request_id: blocked.requestId, host: 'shop.example.test', client_ip: '127.0.0.1', method: 'POST', status: 403, action: 'blocked',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) logs-show-e2e',
    });
    expect(detail.uri).toBe('/contact/?s=Se%C3%A1n+%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(detail.anomaly!.inbound_score).toBeGreaterThanOrEqual(detail.anomaly!.inbound_threshold);
    expect(detail.anomaly!.inbound_threshold).toBe(5);
    const vars = detail.rules.map((r) => r.matched_var);
    expect(vars).toContain('ARGS:pwd');
    expect(detail.rules.some((r) => r.rule_id === '949110' && r.action === 'block')).toBe(true);
    expect(detail.rules.every((r) => r.msg !== '' && r.file !== '')).toBe(true);
  });

  it('shows non-ASCII matched data as UTF-8', () => {
    const s = detail.rules.find((r) => r.matched_var === 'ARGS:s' && r.matched_data !== null);
    expect(s, JSON.stringify(detail.rules)).toBeDefined();
    expect(s!.matched_data).toContain('Seán');
    expect(JSON.stringify(detail)).not.toContain('SeÃ¡n');
  });

  it('never shows a password argument or a cookie value in full', () => {
    const all = JSON.stringify(detail);
    expect(all).not.toContain('hunter2-secret');
    expect(all).not.toContain('cookie-secret-value');
    // Not vacuous: a rule did match the cookie and the password, and their data is there, masked.
    expect(detail.rules.find((r) => r.matched_var?.startsWith('REQUEST_COOKIES'))?.matched_data, JSON.stringify(detail.rules)).toMatch(/masked/);
    expect(detail.rules.find((r) => r.matched_var === 'ARGS:pwd')!.matched_data).toMatch(/masked/);
  });

  it('prints the same for humans, and finds it by an event id too', async () => {
    const text = await d.wafctl('--site', 'shop.example.test', 'logs', 'show', blocked.requestId);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^action +blocked$/m);
    expect(text.stdout).toContain(`request id     ${blocked.requestId}`);
    expect(text.stdout).toContain('matched ARGS:pwd = ');
    expect(text.stdout).not.toContain('hunter2-secret');
    const byEvent = await shown('shop.example.test', String(detail.rules[0].id), withStatus);
    expect(byEvent).toEqual(detail);
  });

  it('shows each matched rule\'s tags, as the engine reported them', async () => {
    const xss = detail.rules.find((r) => r.file.includes('941') && r.rule_id !== '949110');
    expect(xss, JSON.stringify(detail.rules)).toBeDefined();
    expect(xss!.tags).toEqual(expect.arrayContaining(['attack-xss', 'OWASP_CRS']));
    // The edge's own checks and rules without tags have an empty list, never a missing field.
    expect(detail.rules.every((r) => Array.isArray(r.tags))).toBe(true);
    const text = await d.wafctl('--site', 'shop.example.test', 'logs', 'show', blocked.requestId);
    expect(text.stdout).toMatch(new RegExp(`^  tags .*attack-xss.*\n  file ${xss!.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  \\(event ${xss!.id}\\)$`, 'm'));
  });

  it('`logs --search REQUEST_ID` lists that request\'s events', async () => {
    const r = await d.wafctl('--site', 'shop.example.test', '--json', 'logs', '--search', blocked.requestId);
    expect(r.code, r.stderr).toBe(0);
    const ids = (JSON.parse(r.stdout) as { logs: Array<{ id: number }> }).logs.map((l) => l.id);
    expect(ids.sort((a, b) => a - b)).toEqual(detail.rules.map((rule) => rule.id));
  });

  it('shows a detect-mode match as "detected", not "blocked"', async () => {
    const passed = await send('watch.example.test', '/?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(passed.status).toBe(200);
    const seen = await shown('watch.example.test', passed.requestId);
    expect(seen.action).toBe('detected');
    expect(seen.rules.every((r) => r.action === 'log')).toBe(true);
    // One site's key does not see another site's request.
    const other = await d.wafctl('--site', 'shop.example.test', 'logs', 'show', passed.requestId);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/^error: not_found: /);
  });

  it('says detected or blocked on every row of `wafctl logs`, table and --json', async () => {
    // A detect-mode match of its own, so the test does not lean on another's.
    const passed = await send('watch.example.test', '/?q=%3Cscript%3Ealert(2)%3C%2Fscript%3E');
    expect(passed.status).toBe(200);
    await shown('watch.example.test', passed.requestId);
    const watched = await d.wafctl('--site', 'watch.example.test', '--json', 'logs');
    expect(watched.code, watched.stderr).toBe(0);
    const rows = (JSON.parse(watched.stdout) as { logs: Array<{ action?: string }> }).logs;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.action !== 'detected')).toEqual([]);
    const shop = (JSON.parse((await d.wafctl('--site', 'shop.example.test', '--json', 'logs')).stdout) as { logs: Array<{ action?: string }> }).logs;
    expect(shop.length).toBeGreaterThan(0);
    expect(shop.filter((r) => r.action !== 'blocked')).toEqual([]);
    const table = await d.wafctl('--site', 'watch.example.test', 'logs');
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+ACTION\s+IP\s+RULE/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\S+ \S+\s+detected\s+127\.0\.0\.1 /);
  });

  it('refuses an unknown or malformed id with the documented error and exit code', async () => {
    const unknown = await d.wafctl('--site', 'shop.example.test', 'logs', 'show', '99999999');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: not_found: no WAF event of shop\.example\.test has the id 99999999/);
    const malformed = await d.wafctl('--site', 'shop.example.test', '--json', 'logs', 'show', 'abc/../1');
    expect(malformed.code).toBe(1);
    expect(malformed.stdout).toBe('');
    expect(malformed.stderr).toMatch(/^error: validation_error: id: must be a WAF event id/);
  });
});
