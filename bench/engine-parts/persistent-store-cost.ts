// What one open of a persistent record costs (daemon/engine/collections/persistent-store.ts), CRS's
// two per request (GLOBAL and IP), in the store of each tree given, interleaved by round:
// 'returning' opens the same IP key again (a client's next request), 'new' a key never seen (a
// flood of User-Agents: past the cap, each open also evicts). CPU time per pair of opens; heap
// after a full GC at the end of each tree's last 'new' run.
//
//   node --expose-gc --import tsx bench/engine-parts/persistent-store-cost.ts [--opens 300000] [--rounds 5] [--roots /tmp/base,.]
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const opens = Number(option('--opens', '300000'));
const rounds = Number(option('--rounds', '5'));
const roots = option('--roots', '.').split(',').map((r) => resolve(r));
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

interface Store { open(collection: string, key: string, now: number): unknown; recordCount: number }
type StoreClass = new (timeoutMs: () => number) => Store;
const stores: StoreClass[] = [];
for (const root of roots) {
  const module = await import(pathToFileURL(`${root}/daemon/engine/collections/persistent-store.ts`).href);
  stores.push(module.InMemoryCollectionStore as StoreClass);
}

const ua = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
function run(Store: StoreClass, fresh: boolean): { usPerPair: number; heapMb: number; records: number } {
  const store = new Store(() => 3_600_000);
  const now = Date.now();
  gc!();
  const c0 = process.cpuUsage();
  for (let i = 0; i < opens; i++) {
    store.open('GLOBAL', 'global', now + (i >> 10));
    store.open('IP', fresh ? `203.0.113.${i & 255}_${i}` : `203.0.113.9_${ua.length}`, now + (i >> 10));
  }
  const c = process.cpuUsage(c0);
  gc!();
  return { usPerPair: (c.user + c.system) / opens, heapMb: process.memoryUsage().heapUsed / 1048576, records: store.recordCount };
}

console.log(`${opens} pairs of opens a run, ${rounds} rounds, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const figures = roots.map(() => ({ returning: [] as number[], fresh: [] as number[], heapMb: 0, records: 0 }));
for (let round = 0; round < rounds; round++) {
  stores.forEach((Store, i) => {
    figures[i].returning.push(run(Store, false).usPerPair);
    const r = run(Store, true);
    figures[i].fresh.push(r.usPerPair);
    figures[i].heapMb = r.heapMb;
    figures[i].records = r.records;
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs: number[]) => `${median(xs).toFixed(3)} (${Math.min(...xs).toFixed(3)}-${Math.max(...xs).toFixed(3)})`;
roots.forEach((root, i) => {
  const f = figures[i];
  console.log(`${root}: returning ${range(f.returning)} us, new ${range(f.fresh)} us per request; after new: ${f.records} records, heap ${f.heapMb.toFixed(1)} MB`);
});
console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
