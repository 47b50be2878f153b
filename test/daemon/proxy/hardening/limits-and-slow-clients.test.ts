import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDGE_LIMITS } from '../../../../daemon/proxy/hardening/edge-limits.js';
import { startEdge, type RunningEdge } from '../helpers.js';
import { rawExchange, ScriptedInspector, startRecordingOrigin, type RecordingOrigin } from './raw-client.js';

// Head limits (414/431), slowloris (the head must complete in time: 408, socket closed) and slow
// bodies (a body must keep moving: 408, socket closed), with short configured timeouts. "Nothing
// held" is the edge's own count of open connections going back to zero.

const H = 'Host: example.test\r\n';
const get = (target: string, extra = '') => `GET ${target} HTTP/1.1\r\n${H}${extra}Connection: close\r\n\r\n`;
const headers = (n: number, size = 10) => Array.from({ length: n }, (_, i) => `X-H${i}: ${'v'.repeat(size)}\r\n`).join('');

/** Waits for the edge's open connections to reach `count` (polled: there is no event for it), up to 10 s. */
async function settled(edge: RunningEdge, count = 0): Promise<number> {
  for (let i = 0; i < 500; i++) {
    const open = await edge.edge.openConnections();
    if (open === count) return count;
    await new Promise((r) => setTimeout(r, 20));
  }
  return edge.edge.openConnections();
}

describe('head limits: defaults like nginx', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  beforeAll(async () => {
    origin = await startRecordingOrigin();
    edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], { inspector: new ScriptedInspector() });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it('documents its defaults', () => {
    expect(DEFAULT_EDGE_LIMITS).toMatchObject({ maxUriBytes: 8192, maxHeaderBytes: 32768, maxHeaders: 100, headerTimeoutMs: 20_000, bodyIdleTimeoutMs: 60_000 });
  });

  it('a target of exactly the limit passes; one byte more is 414 and never forwarded', async () => {
    const base = '/p?';
    const ok = await rawExchange(edge.port, get(base + 'a'.repeat(8192 - base.length)));
    expect(ok.statuses).toEqual([200]);
    const heads = origin.heads.length;
    const long = await rawExchange(edge.port, get(base + 'a'.repeat(8193 - base.length)));
    expect(long.statuses).toEqual([414]);
    expect(long.closedByServer).toBe(true);
    expect(long.text).toMatch(/Request id: <code>[0-9a-f-]{36}<\/code>/);
    expect(origin.heads.length).toBe(heads);
  });

  it('100 header fields pass; 101 is 431', async () => {
    // Host and Connection are two of the 100.
    expect((await rawExchange(edge.port, get('/', headers(98)))).statuses).toEqual([200]);
    const heads = origin.heads.length;
    const many = await rawExchange(edge.port, get('/', headers(99)));
    expect(many.statuses).toEqual([431]);
    expect(origin.heads.length).toBe(heads);
  });

  it('header fields over 32 KiB in total are 431, a whole head over the parser budget as well', async () => {
    const heads = origin.heads.length;
    const big = await rawExchange(edge.port, get('/', headers(5, 7000)));
    expect(big.statuses).toEqual([431]);
    const huge = await rawExchange(edge.port, get('/', headers(2, 30_000)));
    expect(huge.statuses).toEqual([431]);
    expect(huge.closedByServer).toBe(true);
    expect(origin.heads.length).toBe(heads);
  });
});

describe('configured limits and slow clients', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  beforeAll(async () => {
    origin = await startRecordingOrigin();
    edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], {
      inspector: new ScriptedInspector(),
      limits: { maxUriBytes: 64, maxHeaders: 6, maxHeaderBytes: 300, headerTimeoutMs: 400, bodyIdleTimeoutMs: 500 },
    });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it('applies configured URI, header count and header size limits', async () => {
    expect((await rawExchange(edge.port, get('/' + 'a'.repeat(63)))).statuses).toEqual([200]);
    expect((await rawExchange(edge.port, get('/' + 'a'.repeat(64)))).statuses).toEqual([414]);
    expect((await rawExchange(edge.port, get('/', headers(4)))).statuses).toEqual([200]);
    expect((await rawExchange(edge.port, get('/', headers(5)))).statuses).toEqual([431]);
    expect((await rawExchange(edge.port, get('/', headers(2, 150)))).statuses).toEqual([431]);
  });

  it('slowloris: a head trickling in a byte at a time is cut with 408 at the header timeout', async () => {
    const heads = origin.heads.length;
    const start = `GET / HTTP/1.1\r\n${H}`;
    const trickle = [start, ...Array.from({ length: 80 }, () => 'X')];
    const reply = await rawExchange(edge.port, trickle, { gapMs: 50 });
    expect(reply.statuses).toEqual([408]);
    expect(reply.closedByServer).toBe(true);
    // 400 ms timeout, checked every 100 ms: cut while the client was still trickling (80 bytes 50 ms
    // apart would take 4 s). Counted in bytes sent, not in wall-clock time, so a slow machine agrees.
    expect(reply.chunksWritten).toBeLessThan(trickle.length);
    expect(origin.heads.length).toBe(heads);
    expect(await settled(edge)).toBe(0);
  });

  it('a connection that never sends a byte is closed as well', async () => {
    // Closed by the configured 400 ms timeout: the wait ends well before the default (20 s) would.
    const reply = await rawExchange(edge.port, [], { waitMs: DEFAULT_EDGE_LIMITS.headerTimeoutMs / 2 });
    expect(reply.closedByServer).toBe(true);
    expect(await settled(edge)).toBe(0);
  });

  it('slow body: a body that stops moving is cut with 408, never forwarded, nothing held', async () => {
    const heads = origin.heads.length;
    // Cut by the configured 500 ms idle timeout: the wait ends well before the default (60 s) would.
    const reply = await rawExchange(edge.port, [`POST /upload HTTP/1.1\r\n${H}Content-Length: 100\r\n\r\n`, 'x'.repeat(10)], { waitMs: DEFAULT_EDGE_LIMITS.headerTimeoutMs / 2 });
    expect(reply.statuses).toEqual([408]);
    expect(reply.closedByServer).toBe(true);
    expect(origin.heads.length).toBe(heads);
    expect(await settled(edge)).toBe(0);
  });

  it('a slow body that keeps moving is not cut, however long it takes in total', async () => {
    // An edge of its own with a 1.5 s idle timeout: the gaps (50 ms) stay far below it even when a
    // loaded machine runs the client's timers late.
    const patient = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], {
      inspector: new ScriptedInspector(), limits: { bodyIdleTimeoutMs: 1_500 },
    });
    try {
      const parts = [`POST /slow HTTP/1.1\r\n${H}Content-Length: 80\r\nConnection: close\r\n\r\n`, ...Array.from({ length: 80 }, () => 'y')];
      // 80 bytes 50 ms apart: at least 4 s in total, more than twice the idle timeout, never idle for it.
      const reply = await rawExchange(patient.port, parts, { gapMs: 50 });
      expect(reply.statuses).toEqual([200]);
      expect(reply.text).toContain('origin saw POST /slow 80');
    } finally {
      await patient.close();
    }
  });
});

describe('body watch on keep-alive connections', () => {
  it('leaves no listener behind on the socket after each request with a body', async () => {
    const { watchBodyProgress } = await import('../../../../daemon/proxy/hardening/body-progress.js');
    const http = await import('node:http');
    const counts: number[] = [];
    const server = http.createServer((req, res) => {
      watchBodyProgress(req, 1_000, () => {});
      req.resume();
      req.on('end', () => { counts.push(req.socket.listenerCount('close')); res.end('ok'); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 15; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ port, host: '127.0.0.1', method: 'POST', agent, headers: { 'content-length': '3' } }, (res) => { res.resume(); res.on('end', resolve); });
        req.on('error', reject);
        req.end('abc');
      });
    }
    agent.destroy();
    server.close();
    expect(new Set(counts).size).toBe(1);
  });
});

describe('connection cap', () => {
  it('closes connections past edge_max_connections on accept; the ones within keep working', async () => {
    const origin = await startRecordingOrigin();
    const edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], { limits: { maxConnections: 2 } });
    const net = await import('node:net');
    try {
      const held = await Promise.all([0, 1].map(() => new Promise<import('node:net').Socket>((resolve) => { const s = net.connect(edge.port, '127.0.0.1', () => resolve(s)); })));
      expect(await settled(edge, 2)).toBe(2); // both accepted by the edge
      const third = await rawExchange(edge.port, `GET / HTTP/1.1\r\n${H}\r\n`, { waitMs: 1_000 });
      expect(third.closedByServer).toBe(true);
      expect(third.statuses).toEqual([]);
      for (const s of held) s.destroy();
      expect(await settled(edge)).toBe(0);
      expect((await rawExchange(edge.port, get('/'))).statuses).toEqual([200]);
    } finally {
      await edge.close();
      await origin.close();
    }
  });
});
