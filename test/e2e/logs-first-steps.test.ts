// New user's tour, minors 4 and 5: `wafctl logs --search` finds the edge's own rule ids as shown in
// its RULE column, and `--page` past the end says so instead of "no WAF events yet". A real
// daemon, a real block through its edge, the CLI as a real process.
import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

const SITE = 'logs.test';
let d: E2eDaemon;
let origin: Server;
let edge: number;

function status(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: edge, path, agent: false, headers: { host: SITE } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  origin = createServer((_req, res) => res.end('origin ok'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  d = await newSandbox();
  expect((await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)))).code).toBe(0);
  edge = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout).ports.edge;
  expect((await d.wafctl('site', 'add', SITE, '--origin', `http://127.0.0.1:${(origin.address() as { port: number }).port}`)).code).toBe(0);
  expect((await d.wafctl('--site', SITE, 'protect', 'page', 'add', '/wp-admin', '--allow', '203.0.113.9')).code).toBe(0);
  const deadline = Date.now() + 30_000;
  while ((await status('/wp-admin/')) !== 403) {
    if (Date.now() > deadline) throw new Error('page protection never went live');
    await new Promise((r) => setTimeout(r, 200));
  }
  // The event is written after the answer: wait until logs has it.
  while (!(await d.wafctl('--json', 'logs')).stdout.includes('page-protection')) {
    if (Date.now() > deadline) throw new Error('the block never showed in logs');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 120_000);
afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

describe('wafctl logs, first steps', { timeout: 60_000 }, () => {
  it('--search page-protection finds the block its RULE column shows', async () => {
    const found = await d.wafctl('--json', 'logs', '--search', 'page-protection');
    expect(found.code, found.stderr).toBe(0);
    const logs = JSON.parse(found.stdout).logs as Array<{ waf_rule_id: string; uri: string }>;
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((l) => l.waf_rule_id === 'page-protection')).toBe(true);
  });

  it('--page past the end says where the last page is, not "no WAF events yet"', async () => {
    const past = await d.wafctl('logs', '--page', '99');
    expect(past.code).toBe(0);
    expect(past.stdout).toBe('');
    expect(past.stderr).toMatch(/^page 99 is past the end: \d+ events? on 1 page \(the last is --page 1\)\n$/);
    const json = await d.wafctl('--json', 'logs', '--page', '99');
    expect(JSON.parse(json.stdout).logs).toEqual([]);
  });
});
