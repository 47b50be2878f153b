import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, site, startEdge, startOrigin, type Origin, type RunningEdge } from './helpers.js';

// The JS challenge against a real browser: headless Chromium (Debian package `chromium`) loads a
// challenged page, runs the proof of work, follows the redirect with the cookie and ends on the
// origin's answer; curl-like clients stay on the challenge page.
// Skipped, with this reason, where Chromium is not installed (`apt-get install chromium`;
// CI's .ci/run installs it).

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

function chromiumDom(url: string, host: string, port: number, profile: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM!, [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`,
      `--host-resolver-rules=MAP ${host} 127.0.0.1`, '--virtual-time-budget=20000', '--dump-dom', `http://${host}:${port}${url}`,
    ], { timeout: 60_000, maxBuffer: 4 << 20 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

describe.skipIf(!CHROMIUM)('JS challenge in headless Chromium', () => {
  let origin: Origin;
  let edge: RunningEdge;
  let profile: string;

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'wafctl-chromium-'));
    origin = await startOrigin();
    edge = await startEdge([site(origin, { bot: { enabled: true, challenge: 'js' } })], { challengeBits: 14 });
  });
  afterAll(async () => { await edge.close(); await origin.close(); rmSync(profile, { recursive: true, force: true }); });

  it('a real browser passes the challenge and reaches the origin; curl does not', async () => {
    const curl = await request({ port: edge.port, path: '/article?id=7', headers: { 'user-agent': 'curl/8.5.0' } });
    expect(curl.status).toBe(403);
    expect(curl.body).toContain('Checking your browser');
    const dom = await chromiumDom('/article?id=7', 'example.test', edge.port, profile);
    expect(dom).not.toContain('Checking your browser');
    // The origin's JSON echo of the request, which carries the pass cookie.
    expect(dom).toContain('"url":"/article?id=7"');
    expect(dom).toContain('wafctl_clearance=');
    expect(origin.seen.some((s) => s.url === '/article?id=7' && String(s.headers.cookie).includes('wafctl_clearance='))).toBe(true);
  }, 90_000);
});
