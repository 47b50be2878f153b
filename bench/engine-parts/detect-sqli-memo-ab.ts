// A/B of the per-transaction @detectSQLi memo (daemon/engine/operators/transaction-memo.ts)
// through the whole engine, in one process: CRS 3.3.4 loaded with the operator as shipped and
// with a copy that analyses every call, the bench requests of bench/engine alternated between
// the two in rounds. Prints median CPU microseconds per request and the ratio.
//
//   npx tsx bench/engine-parts/detect-sqli-memo-ab.ts [--rounds 16] [--per-round 30] [--pl 1]
import { loadCrs, type Waf } from '../../daemon/engine/waf.js';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { operators, type OperatorDefinition, type OperatorFactory } from '../../daemon/engine/operators/index.js';
import { detectSQLi } from '../../daemon/engine/libinjection/index.js';
import { benchRequests } from '../engine/requests.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import { loadavg } from 'node:os';

const argv = process.argv.slice(2);
const option = (name: string, dflt: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt);
const rounds = option('--rounds', 16);
const perRound = option('--per-round', 30);
const pl = option('--pl', 1);

const unmemoized: OperatorFactory = () => (input, runtime) => {
  const result = detectSQLi(input);
  if (!result.isSqli) return false;
  if (runtime.capturing) runtime.setCapture(0, result.fingerprint);
  return true;
};
const BASE = `SecRuleEngine On
SecRequestBodyAccess On
SecRule REQUEST_HEADERS:Content-Type "^application/json" "id:200001,phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=JSON"`;
const load = (ops: ReadonlyMap<string, OperatorDefinition>) =>
  loadCrs({ registries: { ...defaultRegistries, operators: ops }, rulesDir: '/usr/share/modsecurity-crs/rules', setupFile: '/etc/modsecurity/crs/crs-setup.conf', before: [{ text: BASE }], paranoiaLevel: pl });
const memo = load(operators);
const plain = load(new Map([...operators, ['detectsqli', { ...operators.get('detectsqli')!, create: unmemoized }]]));

function once(waf: Waf, request: EngineRequest): number {
  const tx = waf.newTransaction(request);
  tx.processRequest();
  tx.processLogging();
  return tx.matches.length;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`@detectSQLi memo A/B, PL${pl}, ${rounds} rounds x ${perRound} per side, load average ${loadavg()[0].toFixed(1)}`);
console.log(`${'request'.padEnd(16)} ${'plain us'.padStart(9)} ${'memo us'.padStart(9)} ${'memo/plain'.padStart(11)}`);
for (const [name, request] of Object.entries(benchRequests)) {
  if (once(memo, request) !== once(plain, request)) throw new Error(`${name}: the memo changed the matches`);
  for (let i = 0; i < 100; i++) { once(memo, request); once(plain, request); }
  const samples = { memo: [] as number[], plain: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? (['plain', 'memo'] as const) : (['memo', 'plain'] as const)) {
      const waf = side === 'memo' ? memo : plain;
      for (let i = 0; i < perRound; i++) {
        const t0 = process.cpuUsage();
        once(waf, request);
        const t = process.cpuUsage(t0);
        samples[side].push(t.user + t.system);
      }
    }
  }
  const a = median(samples.plain), b = median(samples.memo);
  console.log(`${name.padEnd(16)} ${a.toFixed(0).padStart(9)} ${b.toFixed(0).padStart(9)} ${(b / a).toFixed(2).padStart(11)}`);
}
console.log(`load average at end ${loadavg()[0].toFixed(1)}`);
