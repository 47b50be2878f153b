// `wafctl site set --block-user-enumeration on|off` end to end: a real daemon and edge, a real
// origin, the CLI as a real process. The cms group refuses WordPress user enumeration by default;
// off lets /?author=N and the REST users endpoint through to the origin, on refuses them again.
import { afterAll, describe, expect, it } from 'vitest';
import { stopAll } from './daemon-harness.js';
import { edgeStatus, eventually, startEdgeSites } from './edge-sites.js';

const SITE = 'authors.example.test';
let closeOrigin: (() => Promise<void>) | null = null;
afterAll(async () => {
  await stopAll();
  await closeOrigin?.();
}, 60_000);



describe('site set --block-user-enumeration', () => {
  it('blocks by default, lets enumeration through when off, blocks again when on; site show says which', { timeout: 180_000 }, async () => {
    const { d, edge, origin } = await startEdgeSites([SITE]);
    closeOrigin = () => new Promise<void>((resolve) => origin.close(() => resolve()));
    const blocked = async () => (await edgeStatus(edge, SITE, '/?author=1')) === 403 && (await edgeStatus(edge, SITE, '/wp-json/wp/v2/users/1')) === 403;
    const passed = async () => (await edgeStatus(edge, SITE, '/?author=1')) === 200 && (await edgeStatus(edge, SITE, '/wp-json/wp/v2/users/1')) === 200;
    await eventually(blocked, 'user enumeration blocked by default');
    expect(JSON.parse((await d.wafctl('--json', 'site', 'show', SITE)).stdout).settings.block_user_enumeration).toBe(true);

    const off = await d.wafctl('site', 'set', SITE, '--block-user-enumeration', 'off');
    expect(off.code, off.stderr).toBe(0);
    await eventually(passed, 'user enumeration let through');
    expect(JSON.parse((await d.wafctl('--json', 'site', 'show', SITE)).stdout).settings.block_user_enumeration).toBe(false);
    expect((await d.wafctl('site', 'show', SITE)).stdout).toMatch(/user enumeration\s+allowed/);
    // The rest of the cms group still runs.
    expect(await edgeStatus(edge, SITE, '/wp-config.php.bak')).toBe(403);

    expect((await d.wafctl('site', 'set', SITE, '--block-user-enumeration', 'on')).code).toBe(0);
    await eventually(blocked, 'user enumeration blocked again');
    expect((await d.wafctl('site', 'show', SITE)).stdout).toMatch(/user enumeration\s+blocked/);
    const bad = await d.wafctl('site', 'set', SITE, '--block-user-enumeration', 'maybe');
    expect(bad.code).toBe(2);
  });
});
