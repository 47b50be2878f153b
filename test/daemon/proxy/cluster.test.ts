import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startOrigin, type Origin } from './helpers.js';

// Rate limits stay exact across node:cluster workers: a real primary with two real workers
// (bench/proxy/edge-server.ts, the server the benchmark measures), counters in the primary.

const SERVER = fileURLToPath(new URL('../../../bench/proxy/edge-server.ts', import.meta.url));

describe('edge under node:cluster (2 workers)', () => {
  let origin: Origin;
  let child: ChildProcess;
  let port = 0;

  beforeAll(async () => {
    origin = await startOrigin();
    child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
      env: { ...process.env, PORT: '0', WORKERS: '2', ORIGIN: origin.url, HOST_NAME: 'example.test', RATE_PATH: '/api/login', RATE_LIMIT: '10' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c) => {
        out += c;
        const m = /edge listening on (\d+) \(2 workers\)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`edge exited ${code}: ${out}`)));
    });
  }, 60_000);
  afterAll(async () => {
    child?.kill('SIGTERM');
    await origin.close();
  });

  it('lets exactly 10 of 50 concurrent requests through with limit 10, whichever worker serves them', async () => {
    // Windows are wall-clock minutes: keep the burst inside one.
    const toBoundary = 60_000 - (Date.now() % 60_000);
    if (toBoundary < 5000) await new Promise((r) => setTimeout(r, toBoundary + 50));
    const replies = await Promise.all(Array.from({ length: 50 }, () => request({ port, path: '/api/login', host: 'example.test' })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    // Each admitted request reached the origin exactly once.
    expect(new Set(origin.seen.map((s) => s.headers['x-request-id'])).size).toBe(10);
  }, 30_000);
});
