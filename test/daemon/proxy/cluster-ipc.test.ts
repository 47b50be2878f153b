import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:cluster';
import { accessEntriesOf, accessRows } from '../../../daemon/proxy/access-rows.js';
import { IpcCounterStore, ipcEventSink, serveWorker } from '../../../daemon/proxy/cluster-ipc.js';
import type { AccessEntry, WafEvent } from '../../../daemon/proxy/events.js';
import { MemoryCounterStore } from '../../../daemon/store/counter-store.js';
import { RecordingSink } from './helpers.js';

// Worker -> primary events over a channel pair that JSON-encodes each message, as node's IPC
// channel does (the real cluster is exercised in cluster.test.ts and the lifecycle tests).

function channelPair(): { worker: EventEmitter & { send(m: unknown): boolean }; primary: EventEmitter & { send(m: unknown): boolean; isConnected(): boolean } } {
  const worker = new EventEmitter() as EventEmitter & { send(m: unknown): boolean };
  const primary = new EventEmitter() as EventEmitter & { send(m: unknown): boolean; isConnected(): boolean };
  worker.send = (m) => { const text = JSON.stringify(m); setImmediate(() => primary.emit('message', JSON.parse(text))); return true; };
  primary.send = (m) => { const text = JSON.stringify(m); setImmediate(() => worker.emit('message', JSON.parse(text))); return true; };
  primary.isConnected = () => true;
  return { worker, primary };
}

const full: AccessEntry = {
  timestamp: 1_795_000_000, host: 'example.test', client_ip: '2001:db8::1', uri: '/a?b=%22c%22', method: 'POST', status: 403,
  bytes_sent: 512, request_time: 0.001234, blocked: true, site_id: 7, request_id: 'r-1', country: 'DE',
  user_agent: 'Mozilla/5.0 "quoted"', referer: 'https://example.test/', upstream_time: 0.0005,
  upstream_error: 'ECONNRESET',
};
const bare: AccessEntry = {
  timestamp: 1_795_000_001, host: 'example.test', client_ip: '127.0.0.1', uri: '/', method: 'GET', status: 421,
  bytes_sent: 0, request_time: 0, blocked: false, site_id: 1, request_id: 'r-2', country: '',
};

describe('access entries over the cluster channel', () => {
  it('rows round-trip every field, optional ones only when present, in the same key order', () => {
    const back = accessEntriesOf(JSON.parse(JSON.stringify(accessRows([full, bare]))));
    expect(back).toStrictEqual([full, bare]);
    expect(JSON.stringify(back)).toBe(JSON.stringify([full, bare]));
    expect('user_agent' in back[1]).toBe(false);
    expect('upstream_time' in back[1]).toBe(false);
    expect('upstream_error' in back[1]).toBe(false);
  });

  it('a worker sink delivers WAF events and access entries to the primary sink, in order', async () => {
    const { worker, primary } = channelPair();
    const received = new RecordingSink();
    serveWorker(primary as unknown as Worker, new MemoryCounterStore(), received);
    const sink = ipcEventSink(worker as unknown as Pick<NodeJS.Process, 'send' | 'on'>, 5);
    const waf = { rule_id: '942100', request_id: 'r-1' } as WafEvent;
    sink.waf(waf);
    sink.access(full);
    sink.access(bare);
    await sink.flush();
    await received.accessEntry((e) => e.request_id === bare.request_id); // the last one sent has arrived
    expect(received.wafEvents).toStrictEqual([waf]);
    expect(received.accessEntries).toStrictEqual([full, bare]);
  });
});

describe('counter hits over the cluster channel', () => {
  it("a worker's hit carries its limit to the primary's store, and a refusal (deny mode) comes back as one", async () => {
    const { worker, primary } = channelPair();
    const seen: Array<number | undefined> = [];
    const store = {
      hit: (_key: string, _windowMs: number, now: number, limit?: number) => {
        seen.push(limit);
        return Promise.resolve(limit === 5 ? { count: Number.MAX_SAFE_INTEGER, resetAt: now + 1000, denied: true as const } : { count: 1, resetAt: now + 60_000 });
      },
    };
    serveWorker(primary as unknown as Worker, store, new RecordingSink());
    const ipc = new IpcCounterStore(worker as unknown as Pick<NodeJS.Process, 'send' | 'on'>);
    const counted = await ipc.hit('k', 60_000, 1000, 10);
    const refused = await ipc.hit('k', 60_000, 1000, 5);
    const unlimited = await ipc.hit('k', 60_000, 1000);
    expect(seen).toEqual([10, 5, undefined]);
    expect(counted).toStrictEqual({ count: 1, resetAt: 61_000 });
    expect(refused).toStrictEqual({ count: Number.MAX_SAFE_INTEGER, resetAt: 2000, denied: true });
    expect(unlimited.denied).toBeUndefined();
  });
});
