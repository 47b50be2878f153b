import type { Worker } from 'node:cluster';
import type { CounterHit, CounterStore } from '../store/counter-store.js';
import { accessEntriesOf, accessRows, type AccessRow } from './access-rows.js';
import { BatchingEventSink, type EventSink, type WafEvent } from './events.js';

// With --workers N (node:cluster) the data plane runs in N processes. Two things must stay
// whole across them:
//   - rate-limit counters: they live in the primary (a MemoryCounterStore, or with --cluster-redis
//     the cluster's counters, which the primary alone talks to); a worker asks
//     over the cluster IPC channel (IpcCounterStore) and the primary answers in arrival order,
//     so limits stay exact however connections are spread. Only requests to a rate-limited path
//     pay the round trip (measured in bench/proxy/counter-ipc.ts).
//     Sharding by client IP to one worker is not possible with node:cluster: the primary hands
//     out connections before any byte is read, and a trusted proxy's connection carries many
//     clients.
//   - events: a worker batches them (BatchingEventSink) and sends each batch to the primary,
//     which passes them to the real sink (event store, audit log). A request's events are sent
//     before its access entry, from one process, so per-request order holds. Access entries
//     travel as positional rows (access-rows.ts): one crosses the channel per request.

const HIT = 'wafctl:counter-hit';
const HIT_REPLY = 'wafctl:counter-reply';
const EVENTS = 'wafctl:events';

interface HitMessage { type: typeof HIT; id: number; key: string; windowMs: number; now: number; limit?: number }
interface HitReply { type: typeof HIT_REPLY; id: number; count: number; resetAt: number; denied?: true }
interface EventsMessage { type: typeof EVENTS; waf: WafEvent[]; access: AccessRow[] }

type Channel = Pick<NodeJS.Process, 'send' | 'on'>;

/** Worker side: counters kept in the primary. */
export class IpcCounterStore implements CounterStore {
  private nextId = 1;
  private readonly pending = new Map<number, (hit: CounterHit) => void>();

  constructor(private readonly channel: Channel = process) {
    if (!channel.send) throw new Error('IpcCounterStore needs an IPC channel (run under node:cluster)');
    channel.on('message', (m: HitReply) => {
      if (m?.type !== HIT_REPLY) return;
      const resolve = this.pending.get(m.id);
      if (resolve) { this.pending.delete(m.id); resolve({ count: m.count, resetAt: m.resetAt, ...(m.denied ? { denied: true } : {}) }); }
    });
  }

  hit(key: string, windowMs: number, now: number, limit?: number): Promise<CounterHit> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.channel.send!({ type: HIT, id, key, windowMs, now, ...(limit !== undefined ? { limit } : {}) } satisfies HitMessage);
    });
  }
}

/** Worker side: events batched, then shipped to the primary. Small batches sent soon (10 ms, 200
 *  entries): a queued access entry otherwise outlives two of the worker's scavenges (one every
 *  ~25 ms at 8k requests/s) and was promoted to the old generation: 205 KB promoted a scavenge
 *  against 87 KB now (A/B in bench/proxy/README.md: 88.7 -> 87.0 µs a GET). The IPC messages
 *  this adds (~100/s per busy worker) cost less than that. */
export function ipcEventSink(channel: Channel = process, maxDelayMs = 10): BatchingEventSink {
  return new BatchingEventSink({
    writeWaf: (waf) => { channel.send!({ type: EVENTS, waf, access: [] } satisfies EventsMessage); },
    writeAccess: (access) => { channel.send!({ type: EVENTS, waf: [], access: accessRows(access) } satisfies EventsMessage); },
  }, { maxDelayMs, maxBatch: 200 });
}

/** Primary side: answers counter hits from a worker and passes its events on. */
export function serveWorker(worker: Worker, counters: CounterStore, sink: EventSink): void {
  worker.on('message', (m: HitMessage | EventsMessage) => {
    if (m?.type === HIT) {
      const reply = (hit: CounterHit) => {
        if (worker.isConnected()) worker.send({ type: HIT_REPLY, id: m.id, count: hit.count, resetAt: hit.resetAt, ...(hit.denied ? { denied: true } : {}) } satisfies HitReply);
      };
      const hit = counters.hit(m.key, m.windowMs, m.now, m.limit);
      if (hit instanceof Promise) hit.then(reply, () => {}); else reply(hit);
    } else if (m?.type === EVENTS) {
      for (const e of m.waf) sink.waf(e);
      for (const e of accessEntriesOf(m.access)) sink.access(e);
    }
  });
}
