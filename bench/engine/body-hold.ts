// How long one hostile or large request body holds the engine's thread (security review M2: 200,000 tiny
// multipart parts held an edge worker ~1.7 s), through the daemon's own rule set (base settings +
// CRS 3.3.4 at PL1) with the daemon's 40 ms time budget, or none (--budget-ms 0) to see the
// unbounded cost. Prints, per body, the median and worst of the CPU and wall ms of phases 1-2 and
// the outcome (rule, 413, or the budget). Figures, not assertions: run it on the commit before the
// fix for the "before" column.
//
//   npx tsx bench/engine/body-hold.ts [--runs 7] [--budget-ms 40]
import { loadavg } from 'node:os';
import { compileRuleSet, findCrs } from '../../daemon/rule-sets/rule-set-builder.js';
import { defaultRuleSettings, ruleSettings } from '../../daemon/rule-sets/rule-settings.js';
import { warmUp } from '../../daemon/engine/budget/warm-up.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import type { Waf } from '../../daemon/engine/waf.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = arg('--runs', 7);
const budgetMs = arg('--budget-ms', 40);

const crs = findCrs('/usr/share/modsecurity-crs');
const waf = compileRuleSet(defaultRuleSettings(1), crs);
// An operator who raised SecRequestBodyNoFilesLimit: bodies of every type reach the other limits.
const raised = compileRuleSet(ruleSettings({ ...defaultRuleSettings(1), before: { name: '<raised>', text: 'SecRequestBodyNoFilesLimit 13107200\n' } }), crs);
warmUp(waf);
warmUp(raised);

const B = 'xYzBoundary';
const MP = `multipart/form-data; boundary=${B}`;
const many = (n: number, item: (i: number) => string) => Array.from({ length: n }, (_, i) => item(i)).join('');
const file = (data: string) => `--${B}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n${data}\r\n--${B}--\r\n`;
const binary = Buffer.alloc(12_000_000);
for (let i = 0; i < binary.length; i++) binary[i] = (i * 2654435761) >>> 24;

const bodies: Array<[string, Waf, string, string]> = [
  ['multipart: 200,000 tiny fields (the review\'s)', waf, MP, many(200_000, (i) => `--${B}\r\nContent-Disposition: form-data; name="a${i % 10}"\r\n\r\nx\r\n`) + `--${B}--\r\n`],
  ['multipart: 170,000 empty files', waf, MP, many(170_000, () => `--${B}\r\nContent-Disposition: form-data; name=f; filename=x\r\n\r\n\r\n`) + `--${B}--\r\n`],
  ['multipart: 12 MB binary file (benign)', waf, MP, file(binary.toString('latin1'))],
  ['multipart: 12 MB text file, 40-byte lines (benign)', waf, MP, file('1234567890,abcdefghij,klmnopqrstu,vwxyz\n'.repeat(300_000))],
  ['multipart: 12 MB of near-boundary lines', waf, MP, file(`--${B.slice(0, -1)}\n`.repeat(900_000))],
  ['urlencoded: 200,000 args (no-files limit raised)', raised, 'application/x-www-form-urlencoded', many(200_000, (i) => `a${i}=1&`)],
  ['JSON: 200,000 keys (raised)', raised, 'application/json', '{' + many(200_000, (i) => `"k${i}":1,`) + '"z":1}'],
  ['JSON: 200,000 deep (raised)', raised, 'application/json', '['.repeat(200_000) + ']'.repeat(200_000)],
  ['XML: 255 deep, 100,000 text pieces (raised)', raised, 'text/xml', '<a>'.repeat(255) + 'x<!---->'.repeat(100_000) + '</a>'.repeat(255)],
];

function request(contentType: string, body: string): EngineRequest {
  return {
    remoteAddr: '203.0.113.9', remotePort: 50000, serverAddr: '10.0.0.1', serverPort: 80, protocol: 'HTTP/1.1', method: 'POST', uri: '/form',
    headers: [['Host', 'shop.example.com'], ['User-Agent', 'Mozilla/5.0'], ['Accept', 'text/html'], ['Content-Type', contentType], ['Content-Length', String(body.length)]],
    body: Buffer.from(body, 'latin1'),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`budget ${budgetMs} ms, ${runs} runs each, load ${loadavg()[0].toFixed(1)}`);
for (const [name, on, contentType, body] of bodies) {
  const req = request(contentType, body);
  const cpu: number[] = [];
  const wall: number[] = [];
  let outcome = '';
  for (let r = 0; r < runs; r++) {
    const tx = on.newTransaction(req);
    if (budgetMs > 0) tx.setTimeBudget(budgetMs);
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    try {
      const i = tx.processRequest();
      outcome = i === null ? 'pass' : i.ruleId === 0 ? `${i.status} (engine)` : `rule ${i.ruleId}`;
    } catch (err) {
      outcome = (err as { code?: string }).code === 'ENGINE_BUDGET_EXCEEDED' ? 'budget' : `error ${(err as Error).message}`;
    }
    wall.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const mib = (Buffer.byteLength(body, 'latin1') / 1048576).toFixed(1);
  console.log(`${name.padEnd(52)} ${mib.padStart(5)} MiB  cpu ms median ${median(cpu).toFixed(1).padStart(7)} max ${Math.max(...cpu).toFixed(1).padStart(7)}  wall ms median ${median(wall).toFixed(1).padStart(7)}  ${outcome}`);
}
