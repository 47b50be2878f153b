// Differential check of the PCRE -> JS translation against real PCRE2 (pcre2test, Debian package
// pcre2-utils): every CRS 3.3.4 regex against a corpus built from the CRS regression tests'
// payloads (raw, URL-decoded, lower-cased), compiled with ModSecurity's options (DOTALL,
// DOLLAR_ENDONLY). Reports agreement on match / no match and on the matched text.
// Run: npx tsx bench/engine-parts/pcre-differential.ts   (needs /usr/bin/pcre2test)
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load as loadYaml } from 'js-yaml';
import { compilePcre } from '../../daemon/engine/regex/index.js';
import { transformations } from '../../daemon/engine/transformations/index.js';
import { collectRx, CRS_RULES_DIR } from '../../test/daemon/engine/regex/crs-rx.js';

const TESTS = '/work/shared/crs-tests/v3.3.4';

function corpus(): string[] {
  const values = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') values.add(Buffer.from(v, 'utf8').toString('latin1'));
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  for (const dir of readdirSync(TESTS)) {
    for (const file of readdirSync(join(TESTS, dir))) {
      let doc: unknown;
      try { doc = loadYaml(readFileSync(join(TESTS, dir, file), 'utf8')); } catch { continue; }
      const tests = (doc as { tests?: Array<{ stages?: Array<{ stage?: { input?: unknown } }> }> } | null)?.tests ?? [];
      for (const t of tests) for (const s of t.stages ?? []) visit(s.stage?.input);
    }
  }
  const urlDecodeUni = transformations.get('urldecodeuni')!.apply;
  const out = new Set<string>();
  for (const v of values) {
    if (v.length === 0 || v.length > 2000) continue;
    out.add(v);
    const d = urlDecodeUni(v);
    out.add(d);
    out.add(d.toLowerCase());
  }
  return [...out].filter((s) => !s.includes('\n') || s.length < 2000);
}

const subjects = corpus();
const sites = collectRx(CRS_RULES_DIR);
const esc = (s: string) => [...s].map((c) => `\\x{${c.charCodeAt(0).toString(16)}}`).join('');
let script = '';
const delimiters = '/!%@~`|;"\'';
for (const site of sites) {
  const delim = [...delimiters].find((d) => !site.pattern.includes(d))!;
  script += `${delim}${site.pattern}${delim}s,dollar_endonly\n`;
  for (const s of subjects) script += `    ${esc(s)}\n`;
  script += '\n';
}
writeFileSync('/tmp/pcre-differential.txt', script, 'latin1');
const output = execFileSync('pcre2test', ['-q', '/tmp/pcre-differential.txt'], { maxBuffer: 1 << 30, encoding: 'latin1' });

// Parse: after each subject line comes either "No match" or " 0: <text>" (plus group lines).
const lines = output.split('\n');
let li = 0;
let agree = 0, disagree = 0, textDiffer = 0;
const examples: string[] = [];
// pcre2test prints bytes outside 0x20-0x7e as \xhh and everything else as is.
const likePcre2test = (t: string) => t.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
for (const site of sites) {
  while (li < lines.length && !lines[li].endsWith('s,dollar_endonly')) li++;
  li++;
  const re = compilePcre(site.pattern).regex;
  for (const s of subjects) {
    while (li < lines.length && !lines[li].startsWith('    ')) li++;
    li++;
    const result = lines[li] ?? '';
    const pcreMatch = result.startsWith(' 0:');
    const m = re.exec(s);
    if (pcreMatch === (m !== null)) {
      agree++;
      if (m && result.slice(4) !== likePcre2test(m[0])) {
        textDiffer++;
        if (examples.length < 15) examples.push(`${site.file}:${site.line} text pcre=${JSON.stringify(result.slice(4, 80))} js=${JSON.stringify(m[0].slice(0, 76))}`);
      }
    } else {
      disagree++;
      if (examples.length < 15) examples.push(`${site.file}:${site.line} pcre=${pcreMatch} js=${m !== null} on ${JSON.stringify(s.slice(0, 120))}`);
    }
  }
}
console.log(`patterns ${sites.length}, subjects ${subjects.length}, evaluations ${agree + disagree}`);
console.log(`agree on match/no-match: ${agree}; disagree: ${disagree}; same match, different matched text: ${textDiffer}`);
for (const e of examples) console.log('  ' + e);
