// The breaker's rules without a Redis (a scripted remote, fake timers): when it opens, what hits
// get while open (local counts in Redis's windows, or a refusal), one probe per interval, and the
// transitions it reports. The same breaker over a real Redis is in test/cluster/counter-breaker.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BreakingCounterStore, type BreakerTransition, type RemoteCounters } from '../../../../daemon/store/redis/counter-breaker.js';
import type { CounterHit } from '../../../../daemon/store/counter-store.js';

class ScriptedRemote implements RemoteCounters {
  up = true;
  hits = 0;
  probes = 0;
  clockOffsetMs = 0;
  private count = 0;
  hit(_key: string, _windowMs: number, now: number): Promise<CounterHit> {
    this.hits++;
    return this.up ? Promise.resolve({ count: ++this.count, resetAt: now + 1000 }) : Promise.reject(new Error('Command timed out'));
  }
  probe(): Promise<void> {
    this.probes++;
    return this.up ? Promise.resolve() : Promise.reject(new Error('Command timed out'));
  }
}

beforeEach(() => { vi.useFakeTimers({ now: 1_800_000_000_000 }); });
afterEach(() => { vi.useRealTimers(); });

const MINUTE = 60_000;

describe('BreakingCounterStore', () => {
  it('opens after 5 failures in a row, counts locally meanwhile, probes once a second, and closes on a good probe', async () => {
    const remote = new ScriptedRemote();
    const transitions: BreakerTransition[] = [];
    const store = new BreakingCounterStore(remote, { failureMode: 'open', onTransition: (t) => transitions.push(t) });
    expect((await store.hit('k', MINUTE, Date.now(), 10)).count).toBe(1);
    remote.up = false;
    const failing = [];
    for (let i = 0; i < 5; i++) failing.push((await store.hit('k', MINUTE, Date.now(), 10)).count);
    expect(failing, 'the failed hits themselves are counted on the node').toEqual([1, 2, 3, 4, 5]);
    expect(store.state).toBe('degraded');
    expect(remote.hits).toBe(6);
    expect((await store.hit('k', MINUTE, Date.now(), 10)).count).toBe(6);
    expect(remote.hits, 'not asked while open').toBe(6);

    await vi.advanceTimersByTimeAsync(1000);
    expect(remote.probes).toBe(1);
    expect(store.state, 'a failed probe keeps it open').toBe('degraded');
    remote.up = true;
    await vi.advanceTimersByTimeAsync(999);
    expect(remote.probes).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(remote.probes).toBe(2);
    expect(store.state).toBe('exact');
    expect(transitions.map((t) => t.state)).toEqual(['degraded', 'exact']);
    expect((await store.hit('k', MINUTE, Date.now(), 10)).count).toBe(2);
    store.close();
  });

  it('a success between failures starts the count again', async () => {
    const remote = new ScriptedRemote();
    const store = new BreakingCounterStore(remote, { failureMode: 'open' });
    for (let round = 0; round < 3; round++) {
      remote.up = false;
      for (let i = 0; i < 4; i++) await store.hit('k', MINUTE, Date.now());
      remote.up = true;
      await store.hit('k', MINUTE, Date.now());
    }
    expect(store.state).toBe('exact');
    store.close();
  });

  it("deny: hits are refused while open, with Retry-After until the probe; local counts would keep Redis's window", async () => {
    const remote = new ScriptedRemote();
    remote.up = false;
    const store = new BreakingCounterStore(remote, { failureMode: 'deny' });
    store.startDegraded(new Error('ECONNREFUSED'));
    const refused = await store.hit('k', MINUTE, Date.now(), 10);
    expect(refused).toMatchObject({ denied: true });
    expect(refused.count).toBeGreaterThan(10);
    expect(refused.resetAt - Date.now()).toBe(1000);
    store.close();
  });

  it("fail open counts in Redis's window: a node whose clock is 2 s ahead still ends the window when Redis does", async () => {
    const remote = new ScriptedRemote();
    remote.clockOffsetMs = -2000; // Redis's clock is 2 s behind this node's
    const store = new BreakingCounterStore(remote, { failureMode: 'open' });
    store.startDegraded(new Error('down'));
    // This node says 00:01:01.000; Redis says 00:00:59.000: still the first minute.
    const nodeNow = 61_000;
    const hit = await store.hit('k', MINUTE, nodeNow);
    expect(hit.resetAt, "the end of Redis's minute, on this node's clock").toBe(62_000);
    store.close();
  });
});

describe('hits waiting on Redis when the breaker opens', () => {
  it('are answered at once (locally), not each after its own timeout', async () => {
    const waiting: Array<(error: Error) => void> = [];
    const remote: RemoteCounters = {
      clockOffsetMs: 0,
      hit: () => new Promise((_resolve, reject) => waiting.push(reject)),
      probe: () => Promise.reject(new Error('hung')),
    };
    const store = new BreakingCounterStore(remote, { failureMode: 'open' });
    const answers: CounterHit[] = [];
    for (let i = 0; i < 12; i++) void Promise.resolve(store.hit(`k${i}`, MINUTE, Date.now())).then((h) => answers.push(h));
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toHaveLength(0);
    // The first five time out: the breaker opens and the seven others are answered with it.
    for (const reject of waiting.slice(0, 5)) reject(new Error('Command timed out'));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.state).toBe('degraded');
    expect(answers).toHaveLength(12);
    expect(answers.every((h) => h.count === 1)).toBe(true);
    // Their own timeouts, later, change nothing.
    for (const reject of waiting.slice(5)) reject(new Error('Command timed out'));
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toHaveLength(12);
    store.close();
  });
});
