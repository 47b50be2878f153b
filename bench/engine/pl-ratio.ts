// Paranoia 4 against paranoia 1 (issue 6: PL4 at most twice PL1), and A/B between engine
// builds, measured in one process with the configurations interleaved: every round runs a
// block of requests through each (build, paranoia level) in turn, so load from the other
// tenants of this shared machine falls on all of them alike. engine-bench.ts runs PL1 and PL4
// minutes apart, and its ratio moves by +-20% from run to run here.
//
//   npx tsx bench/engine/pl-ratio.ts ["8 KB JSON POST"] [--rounds 30] [--block 50] [--roots /work/main,/tmp/base]
//
// --roots: engine trees to compare (each holds daemon/engine/); the first is the reference of
// the B/A ratios. Times are CPU microseconds per request (process.cpuUsage); the figure is the
// median over rounds of each block's mean.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchRequests } from './requests.js';
import { BENCH_BASE, CRS_RULES, CRS_SETUP } from './setup.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const rounds = Number(option('--rounds', '30'));
const block = Number(option('--block', '50'));
const here = resolve(import.meta.dirname, '../..');
const roots = option('--roots', here).split(',').map((r) => resolve(r));
const names = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const requestNames = names.length > 0 ? names : ['8 KB JSON POST'];

interface Config { root: string; pl: number; request: EngineRequest; name: string; once: () => void; samples: number[] }

async function loadWaf(root: string, pl: number) {
  const { loadCrs } = await import(pathToFileURL(`${root}/daemon/engine/waf.ts`).href);
  const { defaultRegistries } = await import(pathToFileURL(`${root}/daemon/engine/default-registries.ts`).href);
  return loadCrs({ registries: defaultRegistries, rulesDir: CRS_RULES, setupFile: CRS_SETUP, before: [{ text: BENCH_BASE, name: '<bench base>' }], paranoiaLevel: pl });
}

const configs: Config[] = [];
for (const root of roots) {
  for (const pl of [1, 4]) {
    const waf = await loadWaf(root, pl);
    for (const name of requestNames) {
      const request = benchRequests[name];
      if (request === undefined) throw new Error(`unknown request "${name}"`);
      const once = () => {
        const tx = waf.newTransaction(request);
        tx.processRequest();
        tx.processLogging();
      };
      configs.push({ root, pl, request, name, once, samples: [] });
    }
  }
}

for (const c of configs) for (let i = 0; i < 300; i++) c.once();
for (let r = 0; r < rounds; r++) {
  // Rotate the starting configuration so none always runs right after a particular other one.
  for (let k = 0; k < configs.length; k++) {
    const c = configs[(k + r) % configs.length];
    const c0 = process.cpuUsage();
    for (let i = 0; i < block; i++) c.once();
    const d = process.cpuUsage(c0);
    c.samples.push((d.user + d.system) / block);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const figure = (root: string, pl: number, name: string) => median(configs.find((c) => c.root === root && c.pl === pl && c.name === name)!.samples);
for (const name of requestNames) {
  console.log(`\n${name} (${rounds} rounds of ${block} requests per configuration, CPU us per request)`);
  for (const root of roots) {
    const p1 = figure(root, 1, name);
    const p4 = figure(root, 4, name);
    const ab = root === roots[0] ? '' : `   vs ${roots[0]}: PL1 ${(p1 / figure(roots[0], 1, name)).toFixed(2)}, PL4 ${(p4 / figure(roots[0], 4, name)).toFixed(2)}`;
    console.log(`${root.padEnd(14)} PL1 ${p1.toFixed(0).padStart(6)}  PL4 ${p4.toFixed(0).padStart(6)}  PL4/PL1 ${(p4 / p1).toFixed(2)}${ab}`);
  }
}
