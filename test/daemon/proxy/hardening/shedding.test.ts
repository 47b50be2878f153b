import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { LoadShedder } from '../../../../daemon/proxy/hardening/load-shedder.js';
import { request, startEdge } from '../helpers.js';
import { startRecordingOrigin } from './raw-client.js';

// Overload shedding with small configured bounds: past the in-flight bound, and while the event loop
// lags, requests get a cheap 503 with Retry-After; the edge serves normally again once it is over.

describe('load shedding', () => {
  it('in-flight bound: with 2 slots and a slow origin, 2 of 6 concurrent requests are served, 4 shed with 503 + Retry-After', async () => {
    const origin = await startRecordingOrigin();
    origin.delayMs = 400;
    const edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], { limits: { maxInFlight: 2, shedLoopDelayMs: 0 } });
    try {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
      const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => request({ port: edge.port, path: `/r${i}`, agent })));
      const served = replies.filter((r) => r.status === 200);
      const shed = replies.filter((r) => r.status === 503);
      expect(served.length).toBe(2);
      expect(shed.length).toBe(4);
      for (const r of shed) {
        expect(r.headers['retry-after']).toBe('1');
        expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect(origin.heads.length).toBe(2);
      expect(edge.edge.loadStats()).toMatchObject({ inFlight: 0, admitted: 2, shedInFlight: 4 });
      // The slots are free again: the next request, on one of the kept-alive connections, is served.
      origin.delayMs = 0;
      expect((await request({ port: edge.port, path: '/after', agent })).status).toBe(200);
      agent.destroy();
    } finally {
      await edge.close();
      await origin.close();
    }
  });

  it('event-loop delay: while the loop lags past the bound requests are shed, and served again once it recovers', async () => {
    const origin = await startRecordingOrigin();
    const edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], { limits: { maxInFlight: 0, shedLoopDelayMs: 40 } });
    try {
      expect((await request({ port: edge.port, path: '/before' })).status).toBe(200);
      // Hog the loop: 150 ms busy slices, back to back, for about 1.2 s (two samples of 500 ms).
      const until = Date.now() + 1_200;
      await new Promise<void>((resolve) => {
        const hog = () => {
          const end = Date.now() + 150;
          while (Date.now() < end) { /* busy */ }
          if (Date.now() < until) setTimeout(hog, 1); else resolve();
        };
        hog();
      });
      expect(edge.edge.loadStats().loopDelayMs).toBeGreaterThan(40);
      const during = await request({ port: edge.port, path: '/during' });
      expect(during.status).toBe(503);
      expect(during.headers['retry-after']).toBe('1');
      expect(edge.edge.loadStats().shedLoopDelay).toBeGreaterThanOrEqual(1);
      // One quiet sample later the worker admits again.
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await request({ port: edge.port, path: '/after' })).status).toBe(200);
      expect(origin.heads.map((h) => h.url)).toEqual(['/before', '/after']);
    } finally {
      await edge.close();
      await origin.close();
    }
  });

  it('bounds of 0 turn shedding off', () => {
    const shedder = new LoadShedder({ maxInFlight: 0, shedLoopDelayMs: 0 });
    for (let i = 0; i < 10_000; i++) expect(shedder.admit()).toBe('ok');
    expect(shedder.stats()).toMatchObject({ inFlight: 10_000, shedInFlight: 0, shedLoopDelay: 0, loopDelayMs: 0 });
    shedder.stop();
  });
});
