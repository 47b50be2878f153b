import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { LoadShedder } from '../../../../daemon/proxy/hardening/load-shedder.js';
import type { RequestInspector } from '../../../../daemon/proxy/inspector.js';
import { request, startEdge } from '../helpers.js';
import { startRecordingOrigin } from './raw-client.js';

// Overload shedding with small configured bounds: past the in-flight bound, and behind a stalled event
// loop, requests get a cheap 503 with Retry-After; the edge serves normally again once it is over.

describe('load shedding', () => {
  it('in-flight bound: with 2 slots and a slow origin, 2 of 6 concurrent requests are served, 4 shed with 503 + Retry-After', async () => {
    const origin = await startRecordingOrigin();
    // The origin answers nothing until the 4 sheds are back: the 2 served hold their slots however
    // slowly the machine delivers the other requests (was: a 1.5 s delay they had to arrive within).
    let release: () => void = () => undefined;
    origin.hold = new Promise((r) => { release = r; });
    const edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], { limits: { maxInFlight: 2, shedLoopDelayMs: 0 } });
    try {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
      let sheds = 0;
      const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => request({ port: edge.port, path: `/r${i}`, agent }).then((r) => {
        if (r.status === 503 && ++sheds === 4) release();
        return r;
      })));
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
      origin.hold = null;
      expect((await request({ port: edge.port, path: '/after', agent })).status).toBe(200);
      agent.destroy();
    } finally {
      await edge.close();
      await origin.close();
    }
  });

  it('event-loop stall: of a batch of requests arriving together at a CPU-bound worker, those behind the bound are shed', async () => {
    const origin = await startRecordingOrigin();
    // An engine that takes 60 ms of CPU per request; the bound is 100 ms.
    const slowEngine: RequestInspector = {
      wantsBody: () => false,
      inspect: () => { const end = performance.now() + 60; while (performance.now() < end) { /* inspect */ } return null; },
    };
    const edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], { inspector: slowEngine, limits: { maxInFlight: 0, shedLoopDelayMs: 100 } });
    try {
      const sockets = await Promise.all(Array.from({ length: 8 }, () => new Promise<net.Socket>((resolve) => {
        const s = net.connect(edge.port, '127.0.0.1', () => resolve(s));
      })));
      // Every connection accepted by the edge before the batch is written (polled: no event for it).
      for (let i = 0; i < 500 && (await edge.edge.openConnections()) < 8; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await edge.edge.openConnections()).toBe(8);
      const replies = sockets.map((s) => new Promise<number>((resolve) => {
        let text = '';
        s.setEncoding('latin1');
        s.on('data', (d: string) => { text += d; if (/\r\n\r\n/.test(text)) resolve(Number(text.slice(9, 12))); });
        s.on('error', () => resolve(0));
      }));
      // Written in one go: the edge reads them in one turn of its loop.
      for (const s of sockets) s.write('GET /batch HTTP/1.1\r\nHost: example.test\r\n\r\n');
      const statuses = await Promise.all(replies);
      for (const s of sockets) s.destroy();
      const served = statuses.filter((x) => x === 200).length;
      const shed = statuses.filter((x) => x === 503).length;
      expect(served + shed).toBe(8);
      // Normally the first one or two are served; a test machine that preempts the process right
      // after its timers may make even the first wait past the bound, so only the shedding is required.
      expect(served).toBeLessThan(8);
      expect(shed).toBeGreaterThanOrEqual(1);
      const stats = edge.edge.loadStats();
      expect(stats.shedLoopDelay).toBe(shed);
      expect(stats.worstStallMs).toBeGreaterThan(100);
      // The batch is over: the next request is served.
      expect((await request({ port: edge.port, path: '/after' })).status).toBe(200);
      expect(origin.heads.filter((h) => h.url === '/batch').length).toBe(served);
    } finally {
      await edge.close();
      await origin.close();
    }
  });

  it('bounds of 0 turn shedding off', () => {
    const shedder = new LoadShedder({ maxInFlight: 0, shedLoopDelayMs: 0 });
    for (let i = 0; i < 10_000; i++) expect(shedder.admit()).toBe('ok');
    expect(shedder.stats()).toMatchObject({ inFlight: 10_000, shedInFlight: 0, shedLoopDelay: 0, worstStallMs: 0 });
    shedder.stop();
  });
});

describe('pipelining flood', () => {
  it('a burst of pipelined requests past the in-flight bound: the bound holds, the rest is shed, every one answered in order', async () => {
    const net = await import('node:net');
    const origin = await startRecordingOrigin();
    const edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], { limits: { maxInFlight: 100, shedLoopDelayMs: 0 } });
    try {
      const n = 1000;
      const socket = await new Promise<import('node:net').Socket>((resolve) => { const s = net.connect(edge.port, '127.0.0.1', () => resolve(s)); });
      socket.pause();
      socket.write(Array.from({ length: n }, (_, i) => `GET /p${i} HTTP/1.1\r\nHost: example.test\r\n\r\n`).join(''));
      await new Promise((r) => setTimeout(r, 500));
      // Node parses a whole read at once, so the burst arrives as one batch of requests; while the
      // client reads nothing, at most 100 of them are being worked on.
      expect(edge.edge.loadStats().inFlight).toBeLessThanOrEqual(100);
      let text = '';
      socket.setEncoding('latin1');
      const done = new Promise<void>((resolve) => {
        socket.on('data', (d: string) => { text += d; if ((text.match(/HTTP\/1\.1 (200|503) /g) ?? []).length >= n) resolve(); });
      });
      socket.resume();
      await done;
      socket.destroy();
      const served = (text.match(/HTTP\/1\.1 200 /g) ?? []).length;
      const shed = (text.match(/HTTP\/1\.1 503 /g) ?? []).length;
      expect(served + shed).toBe(n);
      expect(served).toBeGreaterThanOrEqual(100);
      expect(shed).toBeGreaterThan(0);
      const stats = edge.edge.loadStats();
      expect(stats.admitted).toBe(served);
      expect(stats.shedInFlight).toBe(shed);
      // The origin saw exactly the served ones (concurrently, in any order)...
      expect(origin.heads.length).toBe(served);
      expect(new Set(origin.heads.map((h) => h.url)).size).toBe(served);
      // ...and the client got its answers in the order it asked.
      const answered = [...text.matchAll(/origin saw GET \/p(\d+) /g)].map((m) => Number(m[1]));
      expect(answered.length).toBe(served);
      expect(answered.every((x, i) => i === 0 || x > answered[i - 1])).toBe(true);
    } finally {
      await edge.close();
      await origin.close();
    }
  }, 60_000);
});
