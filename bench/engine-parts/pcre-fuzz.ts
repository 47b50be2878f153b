// Random-pattern differential check of the PCRE -> JS translation against PCRE2 (pcre2test, Debian
// pcre2-utils): patterns from a grammar covering the constructs ../../daemon/engine/regex/ handles
// (inline and scoped options, possessives, atomic groups, classes, POSIX classes, escapes, anchors,
// back references, lookarounds), subjects over bytes that separate PCRE from JS (VT, NBSP, Latin-1
// letters, CR/LF). Run: npx tsx bench/engine-parts/pcre-fuzz.ts [patterns] [seed]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { compilePcre } from '../../daemon/engine/regex/index.js';

const count = Number(process.argv[2] ?? 3000);
let seed = Number(process.argv[3] ?? 12345);
const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

const ATOMS = ['a', 'b', 'A', 'B', 'x', ' ', '\\n', '\\r', '\\.', '.', '\\d', '\\w', '\\s', '\\S', '\\W', '\\h', '\\v', '\\xe0', '\\xC0', '\\x{0b}',
  '[ab]', '[^a]', '[a-c]', '[[:alpha:]]', '[[:^space:]]', '[]a]', '[\\w-]', '[\\s\\xa0]', '\\Qa.\\E', '\\e', '\\101',
  '\\0', '\\x41', '\\cA', '[\\d-z]', '[a\\]]', '[^\\W_]', 'a{,2}', 'x{', '(a)\\1', '(?<n>b)\\k<n>', '(?P<m>a)(?P=m)', '\\R', '\\N',
  '[\\x{41}-\\x{43}]', '\\o{101}', '(?#c)', '\\g{1}', '\\12'];
const ANCHORS = ['^', '$', '\\b', '\\B', '\\A', '\\z', '\\Z'];
const QUANTS = ['*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '*+', '++', '?+', '{1,2}+'];

function gen(depth: number): string {
  const parts: string[] = [];
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) {
    const r = rand();
    let item: string;
    if (r < 0.5 || depth > 2) item = pick(ATOMS);
    else if (r < 0.6) item = pick(ANCHORS);
    else if (r < 0.9) item = `${pick(['(', '(?:', '(?i:', '(?-i:', '(?>', '(?=', '(?!', '(?<=', '(?s-i:', '(?m:'])}${gen(depth + 1)}${rand() < 0.3 ? '|' + gen(depth + 1) : ''})`;
    else item = pick(['(?i)', '(?-i)', '(?s)', '(?-s)', '(?m)', '(?x) a b ', '(?-x)']);
    if (!item.startsWith('(?') || item.endsWith(')') && !/^\(\?[ims-]+\)$/.test(item)) {
      if (!ANCHORS.includes(item) && !item.startsWith('(?=') && !item.startsWith('(?!') && !item.startsWith('(?<') && rand() < 0.4) item += pick(QUANTS);
    }
    parts.push(item);
  }
  return parts.join('');
}

const SUBJECT_CHARS = ['a', 'b', 'A', 'B', 'x', ' ', '\n', '\r', '.', '1', '_', '-', '\x0b', '\xa0', '\xe0', '\xc0', 'e', 'C'];
const subjects: string[] = [];
for (let i = 0; i < 40; i++) {
  let s = '';
  const len = 1 + Math.floor(rand() * 7); // a blank subject line would end pcre2test's subject list
  for (let k = 0; k < len; k++) s += pick(SUBJECT_CHARS);
  subjects.push(s);
}

const patterns: string[] = [];
let script = '';
for (let i = 0; i < count; i++) {
  let p = gen(0);
  if (p.includes('(?<=') || p.includes('(?<!')) p = p.replace(/\(\?<[=!][^)]*\)/g, ''); // PCRE needs fixed-length lookbehind; skip
  if (p.includes('/') || p.length === 0) continue;
  patterns.push(p);
  script += `/${p}/s,dollar_endonly\n`;
  for (const s of subjects) script += `    ${[...s].map((c) => `\\x{${c.charCodeAt(0).toString(16)}}`).join('')}\n`;
  script += '\n';
}
writeFileSync('/tmp/pcre-fuzz.txt', script, 'latin1');
let out: string;
try {
  out = execFileSync('pcre2test', ['-q', '/tmp/pcre-fuzz.txt'], { maxBuffer: 1 << 30, encoding: 'latin1' });
} catch (err) {
  out = (err as { stdout: string }).stdout;
}
const lines = out.split('\n');
let li = 0;
let evaluations = 0, disagree = 0, textDiffer = 0, pcreRejects = 0, jsRejects = 0;
const examples: string[] = [];
const likePcre2test = (t: string) => t.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
for (const pattern of patterns) {
  const header = `/${pattern}/s,dollar_endonly`;
  while (li < lines.length && lines[li] !== header) li++;
  li++;
  if (/^Failed: error/.test(lines[li] ?? '')) { pcreRejects++; continue; }
  let re;
  try { re = compilePcre(pattern).regex; } catch (err) {
    jsRejects++;
    if (examples.length < 20) examples.push(`JS rejects /${pattern}/: ${(err as Error).message}`);
    continue;
  }
  for (const s of subjects) {
    while (li < lines.length && !lines[li].startsWith('    ')) li++;
    li++;
    const result = lines[li] ?? '';
    const pcre = result.startsWith(' 0:');
    const m = re.exec(s);
    evaluations++;
    if (pcre !== (m !== null)) {
      disagree++;
      if (examples.length < 20) examples.push(`/${pattern}/ on ${JSON.stringify(s)}: pcre=${pcre} js=${m !== null}`);
    } else if (m && result.slice(4) !== likePcre2test(m[0])) {
      textDiffer++;
      if (examples.length < 20) examples.push(`/${pattern}/ on ${JSON.stringify(s)}: pcre matched ${result.slice(4)} js ${JSON.stringify(m[0])}`);
    }
  }
}
console.log(`patterns ${patterns.length} (PCRE rejects ${pcreRejects}, JS rejects ${jsRejects}), evaluations ${evaluations}`);
console.log(`disagreements: match/no-match ${disagree}, matched text ${textDiffer}`);
for (const e of examples) console.log('  ' + e);
