// Paranoia 4 against paranoia 1 (PL4 at most twice PL1), and A/B between engine
// builds, measured in one process with the configurations interleaved: every round runs a
// block of requests through each (build, paranoia level) in turn, so load from the other
// tenants of this shared machine falls on all of them alike. engine-bench.ts runs PL1 and PL4
// minutes apart, and its ratio moves by +-20% from run to run here.
//
//   npx tsx bench/engine/pl-ratio.ts ["8 KB JSON POST"] [--rounds 30] [--block 50] [--roots /work/main,/tmp/base]
//                                    [--daemon] [--levels 1,4] [--vary same|fresh|unique|mixed]
//
// --daemon: the daemon's rule set (daemon/rule-sets: base settings, CRS with the WordPress exclusions,
// the cms group; phases 1-2 only, as the edge runs them) instead of the bench's plain CRS;
// --levels: paranoia levels to run (default 1,4);
// --vary: what the requests repeat (request-copies.ts; every configuration gets the same copies).
// --roots: engine trees to compare (each holds daemon/engine/); the first is the reference of
// the B/A ratios. Times are CPU microseconds per request (process.cpuUsage); the figure is the
// median over rounds of each block's mean.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchRequests } from './requests.js';
import { BENCH_BASE, CRS_RULES, CRS_SETUP } from './setup.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import { requestCopies, type CopyMode } from './request-copies.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const rounds = Number(option('--rounds', '30'));
const block = Number(option('--block', '50'));
const here = resolve(import.meta.dirname, '../..');
const roots = option('--roots', here).split(',').map((r) => resolve(r));
const daemon = argv.includes('--daemon');
const levels = option('--levels', '1,4').split(',').map(Number);
const vary = option('--vary', 'same') as CopyMode;
const names = argv.filter((a, i) => !a.startsWith('--') && !(argv[i - 1]?.startsWith('--') && argv[i - 1] !== '--daemon'));
const requestNames = names.length > 0 ? names : ['8 KB JSON POST'];

interface Config { root: string; pl: number; request: EngineRequest; name: string; once: () => void; samples: number[] }

async function loadWaf(root: string, pl: number) {
  if (daemon) {
    const { compileRuleSet, findCrs } = await import(pathToFileURL(`${root}/daemon/rule-sets/rule-set-builder.ts`).href);
    const { defaultRuleSettings } = await import(pathToFileURL(`${root}/daemon/rule-sets/rule-settings.ts`).href);
    return compileRuleSet(defaultRuleSettings(pl), findCrs('/usr/share/modsecurity-crs'));
  }
  const { loadCrs } = await import(pathToFileURL(`${root}/daemon/engine/waf.ts`).href);
  const { defaultRegistries } = await import(pathToFileURL(`${root}/daemon/engine/default-registries.ts`).href);
  return loadCrs({ registries: defaultRegistries, rulesDir: CRS_RULES, setupFile: CRS_SETUP, before: [{ text: BENCH_BASE, name: '<bench base>' }], paranoiaLevel: pl });
}

// The same copies for every configuration ('unique': one per request of the whole run).
const copiesByName = new Map(requestNames.map((name) => {
  const request = benchRequests[name];
  if (request === undefined) throw new Error(`unknown request "${name}"`);
  return [name, requestCopies(request, vary, vary === 'unique' || vary === 'mixed' ? 300 + rounds * block : 256)];
}));
const configs: Config[] = [];
for (const root of roots) {
  for (const pl of levels) {
    const waf = await loadWaf(root, pl);
    for (const name of requestNames) {
      const request = benchRequests[name];
      const copies = copiesByName.get(name)!;
      let turn = 0;
      const once = () => {
        const tx = waf.newTransaction(copies[turn++ % copies.length]);
        tx.processRequest();
        // The edge runs phases 1-2 only (daemon/rule-sets/engine-inspector.ts): so does --daemon.
        if (!daemon) tx.processLogging();
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

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
const samplesOf = (root: string, pl: number, name: string) => configs.find((c) => c.root === root && c.pl === pl && c.name === name)!.samples;
const figure = (root: string, pl: number, name: string) => median(samplesOf(root, pl, name));
/** B/A per round (the two blocks ran within one round), median and interquartile range. */
function paired(a: number[], b: number[]): string {
  const ratios = sorted(b.map((x, i) => x / a[i]));
  const q = (f: number) => ratios[Math.min(ratios.length - 1, Math.floor(ratios.length * f))].toFixed(3);
  return `${q(0.5)} (IQR ${q(0.25)}-${q(0.75)})`;
}
for (const name of requestNames) {
  console.log(`\n${name} (${rounds} rounds of ${block} requests per configuration, CPU us per request${daemon ? ', daemon rule set' : ''}${vary === 'same' ? '' : `, ${vary} values`})`);
  for (const root of roots) {
    const cells = levels.map((pl) => `PL${pl} ${figure(root, pl, name).toFixed(0).padStart(6)}`).join('  ');
    const ratio = levels.includes(1) && levels.includes(4) ? `  PL4/PL1 ${(figure(root, 4, name) / figure(root, 1, name)).toFixed(2)}` : '';
    const ab = root === roots[0] ? '' : `   vs ${roots[0]}: ${levels.map((pl) => `PL${pl} ${paired(samplesOf(roots[0], pl, name), samplesOf(root, pl, name))}`).join(', ')}`;
    console.log(`${root.padEnd(14)} ${cells}${ratio}${ab}`);
  }
}
