// `wafctl site set --block-user-enumeration on|off` end to end: a real daemon and edge, a real
// origin, the CLI as a real process. The cms group refuses WordPress user enumeration by default;
// off lets /?author=N and the REST users endpoint through to the origin, on refuses them again.
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { stopAll } from './daemon-harness.js';
import { startEdgeSites } from './edge-sites.js';

const SITE = 'authors.example.test';
let closeOrigin: (() => Promise<void>) | null = null;
afterAll(async () => {
  await stopAll();
  await closeOrigin?.();
}, 60_000);

function send(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { host: SITE, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e', accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A settings change compiles its rule set in the background: wait for the state, by bounded tries. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never happened: ${what}`);
}

describe('site set --block-user-enumeration', () => {
  it('blocks by default, lets enumeration through when off, blocks again when on; site show says which', { timeout: 180_000 }, async () => {
    const { d, edge, origin } = await startEdgeSites([SITE]);
    closeOrigin = () => new Promise<void>((resolve) => origin.close(() => resolve()));
    const blocked = async () => (await send(edge, '/?author=1')) === 403 && (await send(edge, '/wp-json/wp/v2/users/1')) === 403;
    const passed = async () => (await send(edge, '/?author=1')) === 200 && (await send(edge, '/wp-json/wp/v2/users/1')) === 200;
    await eventually(blocked, 'user enumeration blocked by default');
    expect(JSON.parse((await d.wafctl('--json', 'site', 'show', SITE)).stdout).settings.block_user_enumeration).toBe(true);

    const off = await d.wafctl('site', 'set', SITE, '--block-user-enumeration', 'off');
    expect(off.code, off.stderr).toBe(0);
    await eventually(passed, 'user enumeration let through');
    expect(JSON.parse((await d.wafctl('--json', 'site', 'show', SITE)).stdout).settings.block_user_enumeration).toBe(false);
    expect((await d.wafctl('site', 'show', SITE)).stdout).toMatch(/user enumeration\s+allowed/);
    // The rest of the cms group still runs.
    expect(await send(edge, '/wp-config.php.bak')).toBe(403);

    expect((await d.wafctl('site', 'set', SITE, '--block-user-enumeration', 'on')).code).toBe(0);
    await eventually(blocked, 'user enumeration blocked again');
    expect((await d.wafctl('site', 'show', SITE)).stdout).toMatch(/user enumeration\s+blocked/);
    const bad = await d.wafctl('site', 'set', SITE, '--block-user-enumeration', 'maybe');
    expect(bad.code).toBe(2);
  });
});
