// Regex safety on V8 (Node 20): how the options behave on catastrophic backtracking, and how many
// translated CRS 3.3.4 regexes each option covers. Each mode runs in its own node process because
// V8 regexp flags are process-wide. Run: npx tsx bench/engine-parts/regex-safety.ts
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const mode = process.argv[2];

if (mode === undefined) {
  const modes: Array<[string, string[]]> = [
    ['default irregexp (backtracking)', []],
    ['--enable-experimental-regexp-engine-on-excessive-backtracks', ['--enable-experimental-regexp-engine-on-excessive-backtracks']],
    ['same flag set at run time via v8.setFlagsFromString', []],
    ['--enable-experimental-regexp-engine (l flag where eligible)', ['--enable-experimental-regexp-engine']],
  ];
  for (const [i, [title, flags]] of modes.entries()) {
    console.log(`\n== ${title}`);
    const out = execFileSync(process.execPath, [...flags, '--import', 'tsx', self, String(i)], { encoding: 'utf8', timeout: 600_000 });
    process.stdout.write(out);
  }
} else {
  const { default: v8 } = await import('node:v8');
  if (mode === '2') v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  const { compilePcre } = await import('../../daemon/engine/regex/index.js');
  const { collectRx, CRS_RULES_DIR } = await import('../../test/daemon/engine/regex/crs-rx.js');
  const linearFlag = mode === '3';

  // Pathological inputs: sizes chosen so the backtracking engine takes visible time without hanging.
  const cases: Array<[string, string]> = [
    ['(a+)+$', 'a'.repeat(24) + '!'],
    ['^(\\w+\\s?)*$', 'aaaaaaaaaaaaaaaaaaaaaaaa!'],
    ['(?:x|x)*y', 'x'.repeat(24)],
  ];
  for (const [pattern, input] of cases) {
    const re = compilePcre(pattern);
    let regex = re.regex;
    if (linearFlag) {
      try { regex = new RegExp(re.regex.source, re.regex.flags + 'l'); } catch { /* not eligible */ }
    }
    const t = performance.now();
    regex.test(input);
    console.log(`  /${pattern}/ on ${input.length} bytes: ${(performance.now() - t).toFixed(1)} ms${regex.flags.includes('l') ? ' (l flag)' : ''}`);
  }

  // Coverage: the linear engine cannot run back references or lookarounds, so a regex using them
  // never falls back. Count translated CRS regexes by that.
  const sites = collectRx(CRS_RULES_DIR);
  let eligible = 0, backrefs = 0, lookaround = 0;
  for (const s of sites) {
    const src = compilePcre(s.pattern).regex.source;
    const hasBackref = /\\[1-9]/.test(src);
    const hasLook = /\(\?<?[=!]/.test(src);
    if (hasBackref) backrefs++;
    if (hasLook) lookaround++;
    if (linearFlag) {
      try { new RegExp(src, 's' + 'l'); eligible++; } catch { /* not eligible */ }
    }
  }
  console.log(`  CRS regexes: ${sites.length}; with back references (incl. atomic/possessive emulation): ${backrefs}; with lookarounds: ${lookaround}` +
    (linearFlag ? `; accepted with the l flag: ${eligible}` : ''));

  // Cost on ordinary traffic: every CRS regex over a benign value.
  const compiled = sites.map((s) => compilePcre(s.pattern).regex);
  const value = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
  for (let i = 0; i < 200; i++) for (const r of compiled) r.test(value);
  const rounds = 2000;
  const t = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const r of compiled) r.test(value);
  const ns = Number(process.hrtime.bigint() - t) / rounds;
  console.log(`  all ${compiled.length} CRS regexes over a 100-byte benign value: ${(ns / 1000).toFixed(1)} us`);
}
