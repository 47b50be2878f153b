// Test helper: the payloads of the CRS 3.3.4 regression tests (test/fixtures/crs-tests), raw,
// URL-decoded and lower-cased, as byte strings: realistic attack and benign values.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load as loadYaml } from 'js-yaml';
import { transformations } from '../../../../daemon/engine/transformations/index.js';

const TESTS = new URL('../../../fixtures/crs-tests/v3.3.4/', import.meta.url).pathname;

export function crsPayloads(maxLength = 600): string[] {
  const values = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') values.add(Buffer.from(v, 'utf8').toString('latin1'));
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  for (const dir of readdirSync(TESTS)) {
    if (!dir.startsWith('REQUEST-') && !dir.startsWith('RESPONSE-')) continue;
    for (const file of readdirSync(join(TESTS, dir))) {
      const doc = loadYaml(readFileSync(join(TESTS, dir, file), 'utf8')) as { tests?: Array<{ stages?: Array<{ stage?: { input?: unknown } }> }> } | null;
      for (const t of doc?.tests ?? []) for (const s of t.stages ?? []) visit(s.stage?.input);
    }
  }
  const urlDecodeUni = transformations.get('urldecodeuni')!.apply;
  const out = new Set<string>();
  for (const v of values) {
    if (v.length === 0 || v.length > maxLength) continue;
    out.add(v);
    const decoded = urlDecodeUni(v);
    out.add(decoded);
    out.add(decoded.toLowerCase());
  }
  return [...out];
}
