// Where operator time goes per request: every operator call the bench requests of bench/engine
// make (CRS 3.3.4, the paranoia level given) is recorded with its input, then each operator's
// calls are replayed in a loop and timed (CPU). Prints calls, bytes and CPU per request and per
// call for each operator, and for @rx the dearest regexes. A replay runs with warm caches, so the
// figures are a floor for what the same calls cost inside the engine.
//
//   npx tsx bench/engine-parts/operator-costs.ts [--pl 1] [--top 8]
import { loadCrs } from '../../daemon/engine/waf.js';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import { operators } from '../../daemon/engine/operators/index.js';
import type { OperatorDefinition, OperatorEvaluate, OperatorRuntime } from '../../daemon/engine/operators/index.js';
import { benchRequests } from '../engine/requests.js';
import { loadavg } from 'node:os';

const argv = process.argv.slice(2);
const option = (name: string, dflt: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt);
const pl = option('--pl', 1);
const top = option('--top', 8);

interface Call { evaluate: OperatorEvaluate; input: string; label: string }
let recording: Call[] | undefined;
const recorded = new Map<string, OperatorDefinition>();
for (const [name, definition] of operators) {
  recorded.set(name, { ...definition, create: (param, ctx) => {
    const evaluate = definition.create(param, ctx);
    const label = `${name} ${param.length > 60 ? param.slice(0, 57) + '...' : param} (${ctx.file.split('/').pop()}:${ctx.line})`;
    return (input, runtime) => {
      recording?.push({ evaluate, input, label });
      return evaluate(input, runtime);
    };
  } });
}

const BASE = `SecRuleEngine On
SecRequestBodyAccess On
SecRule REQUEST_HEADERS:Content-Type "^application/json" "id:200001,phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=JSON"`;
const waf = loadCrs({ registries: { ...defaultRegistries, operators: recorded }, rulesDir: '/usr/share/modsecurity-crs/rules', setupFile: '/etc/modsecurity/crs/crs-setup.conf', before: [{ text: BASE }], paranoiaLevel: pl });

// Replays need a runtime, a fresh one per pass (one pass = one transaction, so per-transaction
// memos start empty); macros expand to nothing, captures are dropped (operators with macro
// parameters therefore do a little less work than in the engine).
const newRuntime = (): OperatorRuntime => ({ capturing: false, expandMacros: (t) => t.replace(/%\{[^}]*\}/g, ''), setCapture() {}, unsetCapture() {}, setGeo() {} });
const cpu = () => { const c = process.cpuUsage(); return c.user + c.system; };

function replay(calls: Call[]): number {
  let best = Infinity;
  const reps = Math.max(3, Math.ceil(20_000 / calls.length));
  for (let round = 0; round < 5; round++) {
    const t0 = cpu();
    for (let r = 0; r < reps; r++) {
      const runtime = newRuntime();
      for (const c of calls) c.evaluate(c.input, runtime);
    }
    best = Math.min(best, (cpu() - t0) / reps);
  }
  return best; // us for one pass over the calls
}

console.log(`operator costs per request, CRS 3.3.4 PL${pl}, load average ${loadavg()[0].toFixed(1)}`);
for (const [name, request] of Object.entries(benchRequests)) {
  recording = [];
  const tx = waf.newTransaction(request);
  tx.processRequest();
  tx.processLogging();
  const calls = recording;
  recording = undefined;
  const byOperator = new Map<string, Call[]>();
  for (const c of calls) {
    const op = c.label.slice(0, c.label.indexOf(' '));
    let list = byOperator.get(op);
    if (!list) byOperator.set(op, (list = []));
    list.push(c);
  }
  console.log(`\n${name}: ${calls.length} operator calls`);
  console.log(`  ${'operator'.padEnd(22)} ${'calls'.padStart(6)} ${'bytes'.padStart(8)} ${'us/req'.padStart(8)} ${'ns/call'.padStart(8)}`);
  let total = 0;
  const rows = [...byOperator].map(([op, list]) => ({ op, list, us: replay(list) })).sort((a, b) => b.us - a.us);
  for (const { op, list, us } of rows) {
    total += us;
    const bytes = list.reduce((n, c) => n + c.input.length, 0);
    console.log(`  ${op.padEnd(22)} ${String(list.length).padStart(6)} ${String(bytes).padStart(8)} ${us.toFixed(1).padStart(8)} ${((us * 1000) / list.length).toFixed(0).padStart(8)}`);
  }
  console.log(`  ${'all operators'.padEnd(22)} ${String(calls.length).padStart(6)} ${''.padStart(8)} ${total.toFixed(1).padStart(8)}`);
  const rx = byOperator.get('rx') ?? [];
  const byRule = new Map<string, Call[]>();
  for (const c of rx) {
    let list = byRule.get(c.label);
    if (!list) byRule.set(c.label, (list = []));
    list.push(c);
  }
  const dear = [...byRule].map(([label, list]) => ({ label, n: list.length, us: replay(list) })).sort((a, b) => b.us - a.us).slice(0, top);
  console.log(`  dearest @rx: ${dear.map((d) => `${d.label.replace(/^rx .* \(/, '(').replace(/REQUEST-|APPLICATION-ATTACK-|\.conf/g, '')} ${d.us.toFixed(0)} us/${d.n}`).join(', ')}`);
}
