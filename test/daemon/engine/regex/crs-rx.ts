// Test helper: every @rx operator argument in a directory of rule files, unescaped the way Apache's
// config reader does it (inside quotes, \\ -> \ and \" -> "), with file and line for failures.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RxSite {
  file: string;
  line: number;
  pattern: string;
}

export const CRS_RULES_DIR = '/usr/share/modsecurity-crs/rules';

export function collectRx(dir: string): RxSite[] {
  const out: RxSite[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.conf')).sort()) {
    const lines = readFileSync(join(dir, file), 'latin1').split('\n');
    for (let i = 0; i < lines.length; i++) {
      let text = lines[i];
      const first = i;
      while (text.endsWith('\\') && i + 1 < lines.length) text = text.slice(0, -1) + lines[++i];
      const words = configWords(text.trim());
      if (words[0] !== 'SecRule' || words.length < 3) continue;
      const op = words[2];
      const m = /^!?@rx\s+([\s\S]*)$/.exec(op);
      if (m) out.push({ file, line: first + 1, pattern: m[1] });
      else if (!op.startsWith('@') && !op.startsWith('!@')) out.push({ file, line: first + 1, pattern: op.replace(/^!/, '') });
    }
  }
  return out;
}

function configWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    const quote = line[i] === '"' || line[i] === "'" ? line[i] : '';
    let word = '';
    if (quote) i++;
    while (i < line.length) {
      const c = line[i];
      if (quote ? c === quote : c === ' ' || c === '\t') break;
      if (c === '\\' && (line[i + 1] === '\\' || (quote && line[i + 1] === quote))) {
        word += line[i + 1];
        i += 2;
        continue;
      }
      word += c;
      i++;
    }
    if (quote) i++;
    words.push(word);
  }
  return words;
}
