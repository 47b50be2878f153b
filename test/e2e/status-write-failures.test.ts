// `wafctl daemon status` says when the event store's writes fail, and stops saying it once they
// succeed again. A real daemon, a real origin, requests through the edge, the CLI as a real process.
// The failure is made without root's help or a full disk: a directory stands where today's access
// segment would be created, so the store's open fails (EISDIR), as an unwritable directory or a
// full disk would make it fail.
import { mkdir, rmdir } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll } from './daemon-harness.js';

let origin: Server | null = null;
afterAll(async () => {
  await stopAll();
  origin?.close();
}, 60_000);

function get(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host, connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** UTC day names around now: a request near midnight may be filed under either. */
function segmentDays(): string[] {
  const now = Date.now();
  return [now - 86_400_000, now, now + 86_400_000].map((ms) => new Date(ms).toISOString().slice(0, 10));
}

describe('daemon status and failing event writes', () => {
  it('shows the failure (what, where, since when, how many) and clears it once writes succeed', { timeout: 120_000 }, async () => {
    origin = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => origin!.listen(0, '127.0.0.1', resolve));
    const d = await newSandbox();
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code, start.stderr).toBe(0);
    expect((await d.wafctl('site', 'add', 'writes.test', '--origin', `http://127.0.0.1:${(origin!.address() as { port: number }).port}`, '--no-login')).code).toBe(0);
    const status = async () => JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number }; write_failures: { events: Record<string, unknown> | null; log: unknown } };
    const edge = (await status()).ports.edge;
    expect((await status()).write_failures).toEqual({ events: null, log: null });

    const blockers = segmentDays().map((day) => join(d.box.dataDir, 'events', `access-${day}.jsonl`));
    for (const dir of blockers) await mkdir(dir);
    expect(await get(edge, 'writes.test')).toBe(200);
    let failing = (await status()).write_failures.events;
    for (let tries = 0; failing === null && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      failing = (await status()).write_failures.events;
    }
    expect(failing).toMatchObject({ error: 'EISDIR (a directory is in the way)', path: join(d.box.dataDir, 'events') });
    expect(failing!.failed_writes).toBeGreaterThanOrEqual(1);
    expect(Number.isNaN(Date.parse(String(failing!.failing_since)))).toBe(false);

    const shown = await d.wafctl('daemon', 'status');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`event writes +FAILING since \\S+: EISDIR \\(a directory is in the way\\) writing ${join(d.box.dataDir, 'events')} \\(\\d+ failed\\)`));
    expect(shown.stderr).toContain('warning: event writes are failing (EISDIR (a directory is in the way) writing');

    for (const dir of blockers) await rmdir(dir);
    let cleared = false;
    for (let tries = 0; !cleared && tries < 100; tries++) {
      expect(await get(edge, 'writes.test')).toBe(200);
      cleared = (await status()).write_failures.events === null;
      if (!cleared) await new Promise((r) => setTimeout(r, 100));
    }
    expect(cleared).toBe(true);
    expect((await d.wafctl('daemon', 'status')).stdout).not.toContain('event writes');
  });
});
