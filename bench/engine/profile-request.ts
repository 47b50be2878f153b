// Runs one benchmark request through the engine many times and prints the CPU time per
// request, for A/B runs (with parts stubbed) and for CPU profiles of the request path only
// (the rule-set load and the warm-up are left out of the profile):
//
//   npx tsx bench/engine/profile-request.ts "benign GET" 1 20000 [/tmp/get.cpuprofile]
//
// Arguments: request name (see requests.ts), paranoia level, iterations, optional profile path.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadCrs } from '../../daemon/engine/waf.js';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { benchRequests } from './requests.js';
import { BENCH_BASE, CRS_RULES, CRS_SETUP } from './setup.js';

const [name = 'benign GET', plText = '1', iterationsText = '20000', profilePath] = process.argv.slice(2);
const request = benchRequests[name];
if (request === undefined) {
  console.error(`unknown request "${name}"; one of: ${Object.keys(benchRequests).join(', ')}`);
  process.exit(2);
}
const waf = loadCrs({ registries: defaultRegistries, rulesDir: CRS_RULES, setupFile: CRS_SETUP, before: [{ text: BENCH_BASE, name: '<bench base>' }], paranoiaLevel: Number(plText) });
const iterations = Number(iterationsText);
const once = () => {
  const tx = waf.newTransaction(request);
  tx.processRequest();
  tx.processLogging();
};
for (let i = 0; i < Math.min(2000, iterations); i++) once();
const session = profilePath === undefined ? undefined : new Session();
if (session !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
const c0 = process.cpuUsage();
for (let i = 0; i < iterations; i++) once();
const c = process.cpuUsage(c0);
if (session !== undefined && profilePath !== undefined) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profilePath, JSON.stringify(profile));
}
console.log(`${name} PL${plText}: ${((c.user + c.system) / iterations).toFixed(1)} us CPU per request (mean of ${iterations})`);
