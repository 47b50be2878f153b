// Micro-benchmarks for the engine's hottest parts, each beside an anchor doing comparable work
// with what JavaScript/Node already offer. Prints ns per call and the ratio ours/anchor.
// Run: npx tsx bench/engine-parts/parts-bench.ts
import { readFileSync } from 'node:fs';
import { unescape as qsUnescape } from 'node:querystring';
import { transformations } from '../../daemon/engine/transformations/index.js';
import { operators } from '../../daemon/engine/operators/index.js';
import type { OperatorRuntime } from '../../daemon/engine/operators/index.js';
import { collectRx, CRS_RULES_DIR } from '../../test/daemon/engine/regex/crs-rx.js';

const runtime: OperatorRuntime = { capturing: false, expandMacros: (t) => t, setCapture: () => undefined };
const ctx = { file: 'bench', line: 1, ruleDir: '/usr/share/modsecurity-crs/rules' };

function time(fn: () => unknown, minMs = 300): number {
  for (let i = 0; i < 2000; i++) fn();
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < minMs * 1e6) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
    elapsed = Number(process.hrtime.bigint() - start);
  }
  return elapsed / n;
}

const rows: Array<[string, number, string, number]> = [];
function compare(name: string, ours: () => unknown, anchorName: string, anchor: () => unknown): void {
  rows.push([name, time(ours), anchorName, time(anchor)]);
}

const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const query = 'q=hello%20world%21&page=2&sort=price%2Cdesc&filter=%u0041%uFF1Cx';
const encodedQuery = 'q=hello%20world%21&page=2&sort=price%2Cdesc&filter=caf%C3%A9';
const html = 'Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; &#60;script&#62; &quot;quoted&quot; and more text here';

const urlDecodeUni = transformations.get('urldecodeuni')!.apply;
const lowercase = transformations.get('lowercase')!.apply;
const htmlEntityDecode = transformations.get('htmlentitydecode')!.apply;

compare('urlDecodeUni (query with %xx and %u)', () => urlDecodeUni(query), 'querystring.unescape', () => qsUnescape(encodedQuery));
compare('urlDecodeUni (nothing to decode)', () => urlDecodeUni(ua), 'querystring.unescape', () => qsUnescape(ua));
compare('lowercase (browser UA)', () => lowercase(ua), 'String#toLowerCase', () => ua.toLowerCase());
const latin = ua + '\xc9\xe9';
compare('lowercase (with Latin-1 bytes)', () => lowercase(latin), 'String#toLowerCase', () => latin.toLowerCase());
const entityAnchor = (s: string) => s.replace(/&(?:(lt|gt|amp|quot|nbsp)|#(\d+));?/gi, (_, n: string, d: string) =>
  d ? String.fromCharCode(Number(d) & 0xff) : ({ lt: '<', gt: '>', amp: '&', quot: '"', nbsp: '\xa0' } as Record<string, string>)[n.toLowerCase()]);
compare('htmlEntityDecode (entities)', () => htmlEntityDecode(html), 'regex replace decoder', () => entityAnchor(html));

// rx: a CRS 942 SQLi regex (translated) against the same regex compiled directly by V8.
const sqliPattern = collectRx(CRS_RULES_DIR).find((site) => site.file.startsWith('REQUEST-942') && site.pattern.includes('waitfor'))!.pattern;
const rx = operators.get('rx')!.create(sqliPattern, ctx);
const direct = new RegExp(sqliPattern.replace(/^\(\?i\)/, '').replace(/^\(\?i:/, '(?:'), 'is');
const benign = 'page=2&sort=price,desc&utm_source=newsletter&session=8c6976e5b5410415bde908bd4dee15df';
compare('@rx CRS 942 (waitfor/sys tables) on a benign value', () => rx(benign, runtime), 'same regex, V8 directly', () => direct.test(benign));

// pm: a CRS phrase file through Aho-Corasick against lower-casing and includes() per phrase.
const dataFile = '/usr/share/modsecurity-crs/rules/unix-shell.data';
const phrases = readFileSync(dataFile, 'latin1').split('\n').map((l) => l.trim()).filter((l) => l.length > 1 && !l.startsWith('#'));
const pm = operators.get('pmfromfile')!.create('unix-shell.data', ctx);
const lowered = phrases.map((p) => p.toLowerCase());
const naive = (s: string) => { const l = s.toLowerCase(); return lowered.some((p) => l.includes(p)); };
compare(`@pmFromFile unix-shell.data (${phrases.length} phrases), benign URI`, () => pm('/catalog/items/42?color=blue&size=xl', runtime),
  'lower-case + includes() per phrase', () => naive('/catalog/items/42?color=blue&size=xl'));

console.log('| part | ours ns/call | anchor | anchor ns/call | ratio ours/anchor |');
console.log('|---|---:|---|---:|---:|');
for (const [name, ours, anchorName, anchor] of rows) {
  console.log(`| ${name} | ${ours.toFixed(0)} | ${anchorName} | ${anchor.toFixed(0)} | ${(ours / anchor).toFixed(2)} |`);
}
