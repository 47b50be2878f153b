// Every @rx of a CRS rules directory with the id of the rule it belongs to (a chained rule's link
// carries its chain head's id), the file and line, and the pattern as Apache's config reader
// unescapes it. Paranoia level from the rule's `tag:'paranoia-level/N'` (1 when absent).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectRx, type RxSite } from '../../test/daemon/engine/regex/crs-rx.js';

export const CRS_RULES_DIR = '/usr/share/modsecurity-crs/rules';

export interface RxRule extends RxSite {
  ruleId: string;
  paranoia: number;
}

export function crsRxRules(dir = CRS_RULES_DIR): RxRule[] {
  const heads = new Map<string, Array<{ line: number; id: string; paranoia: number }>>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.conf'))) {
    const lines = readFileSync(join(dir, file), 'latin1').split('\n');
    const found: Array<{ line: number; id: string; paranoia: number }> = [];
    let lastHead = { id: '?', paranoia: 1 };
    for (let i = 0; i < lines.length; i++) {
      const first = i;
      let text = lines[i];
      while (text.endsWith('\\') && i + 1 < lines.length) text = text.slice(0, -1) + lines[++i];
      if (!/^\s*SecRule\s/.test(text)) continue;
      const id = /[",\s]id:(\d+)/.exec(text)?.[1];
      if (id !== undefined) {
        const pl = /paranoia-level\/(\d)/.exec(text)?.[1];
        lastHead = { id, paranoia: pl === undefined ? 1 : Number(pl) };
      }
      found.push({ line: first + 1, ...lastHead });
    }
    heads.set(file, found);
  }
  return collectRx(dir).map((site) => {
    const head = heads.get(site.file)?.find((h) => h.line === site.line) ?? { id: '?', paranoia: 1 };
    return { ...site, ruleId: head.id, paranoia: head.paranoia };
  });
}
