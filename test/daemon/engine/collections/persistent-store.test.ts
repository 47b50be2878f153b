// The persistent collections' store: bounded per collection (least recently used goes first),
// expiry as before, and through the engine a rate limit that holds for a live client while a flood
// of new ones passes.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RECORDS, InMemoryCollectionStore } from '../../../../daemon/engine/collections/persistent-store.js';
import { Waf } from '../../../../daemon/engine/waf.js';
import { testRegistries } from '../helpers/test-registries.js';
import { request } from '../helpers/request.js';

const HOUR = 3_600_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function heapAfterGc(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

describe('InMemoryCollectionStore', () => {
  it('a flood of 1M distinct keys stays at the cap, in records and in heap', () => {
    const store = new InMemoryCollectionStore(() => HOUR);
    const before = heapAfterGc();
    const now = Date.now();
    for (let i = 0; i < 1_000_000; i++) store.open('IP', `198.51.100.${i & 255}_${i}`, now + (i >> 10));
    expect(store.recordsIn('IP')).toBe(DEFAULT_MAX_RECORDS);
    expect(store.evictions).toBe(1_000_000 - DEFAULT_MAX_RECORDS);
    const grownMb = (heapAfterGc() - before) / 1048576;
    // A record with its key is ~0.6 KB (bench/engine-parts/persistent-store-cost.ts): 100,000 are
    // ~60 MB; the 1M unbounded would be ~600.
    expect(grownMb).toBeLessThan(120);
  }, 60_000);

  it('keeps a record in use while older ones go, with its variables', () => {
    const store = new InMemoryCollectionStore(() => HOUR, 3);
    store.open('IP', 'attacker', 1000).set('hits', '5');
    store.open('IP', 'b', 1001);
    store.open('IP', 'c', 1002);
    store.open('IP', 'attacker', 1003); // used again: now the most recent
    store.open('IP', 'd', 1004); // full: 'b', the least recently used, goes
    expect(store.recordsIn('IP')).toBe(3);
    expect(store.open('IP', 'attacker', 1005).get('hits')).toBe('5');
    expect(store.open('IP', 'c', 1006).get('hits')).toBeUndefined();
    store.open('IP', 'b', 1007).set('hits', '1'); // 'b' was dropped: a new, empty record (evicts 'd')
    expect(store.evictions).toBe(2);
    expect(store.open('IP', 'attacker', 1008).get('hits')).toBe('5');
  });

  it('bounds each collection on its own: an IP flood does not evict GLOBAL', () => {
    const store = new InMemoryCollectionStore(() => HOUR, 10);
    store.open('GLOBAL', 'global', 0).set('seen', '1');
    for (let i = 0; i < 1000; i++) store.open('ip', `k${i}`, i);
    expect(store.recordsIn('IP')).toBe(10);
    expect(store.recordCount).toBe(11);
    expect(store.open('global', 'global', 1000).get('seen')).toBe('1');
  });

  it('a record unused for the timeout is new again, and the sweep drops expired ones', () => {
    const store = new InMemoryCollectionStore(() => 1000);
    store.open('IP', 'a', 0).set('hits', '3');
    expect(store.open('IP', 'a', 1000).get('hits')).toBe('3'); // exactly the timeout: still live
    expect(store.open('IP', 'a', 2001).get('hits')).toBeUndefined();
    for (let i = 0; i < 500; i++) store.open('IP', `old${i}`, 3000);
    expect(store.recordsIn('IP')).toBe(501);
    // 1,000 opens later (from the first) the sweep runs: the 500 old ones have expired by then.
    for (let i = 0; i < 500; i++) store.open('IP', 'live', 5000);
    expect(store.recordsIn('IP')).toBe(1);
    expect(store.evictions).toBe(0);
  });

  it('refuses a cap that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new InMemoryCollectionStore(() => HOUR, bad)).toThrow(RangeError);
  });
});

describe('persistent collections through the engine, bounded', () => {
  // A per-address rate limit as CRS's DoS rules write it: a counter in the IP record.
  const rules = `SecRuleEngine On
SecAction "id:100,phase:1,pass,nolog,initcol:ip=%{remote_addr},setvar:ip.hits=+1"
SecRule IP:hits "@ge 4" "id:101,phase:1,deny,status:429,log"`;

  it('a client over its limit stays limited while a flood of new addresses passes the cap', () => {
    const store = new InMemoryCollectionStore(() => HOUR, 50);
    const waf = Waf.load([{ text: rules, name: 'inline.conf' }], { registries: testRegistries, store });
    const status = (addr: string) => waf.newTransaction(request('/', { remoteAddr: addr })).processRequest()?.status ?? 200;
    expect([1, 2, 3, 4].map(() => status('192.0.2.66'))).toEqual([200, 200, 200, 429]);
    for (let i = 0; i < 2000; i++) {
      expect(status(`10.0.${i >> 8}.${i & 255}`)).toBe(200);
      if (i % 10 === 0) expect(status('192.0.2.66')).toBe(429); // live: used often, never the oldest
    }
    expect(store.recordsIn('IP')).toBe(50);
    expect(status('10.0.0.0')).toBe(200); // long evicted: starts again from nothing
  });
});
