// Runs the CRS v3.3.4 FTW regression tests through the daemon's edge (a real listener in front of
// a real origin, harness/edge-under-test.ts) and judges them; also reads the reference results (Apache + ModSecurity v2, nginx + v3).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Waf } from '../../daemon/engine/waf.js';
import { loadFtwTests, type FtwTest } from './ftw-suite.js';
import { buildFtwRequest } from './ftw-request.js';
import { sendRaw } from './ftw-client.js';
import { judgeStage } from './judge.js';
import { FIXTURES } from './ci-waf.js';
import { EdgeUnderTest } from './harness/edge-under-test.js';

export interface TestResult {
  title: string;
  file: string;
  passed: boolean;
  reason?: string;
  firedIds: number[];
}

export function loadSuite(): FtwTest[] {
  return loadFtwTests(join(FIXTURES, 'v3.3.4'));
}

export async function runConformance(waf: Waf, tests: readonly FtwTest[], timeoutMs = 1500): Promise<TestResult[]> {
  const edge = await EdgeUnderTest.start(waf);
  const results: TestResult[] = [];
  try {
    for (const test of tests) {
      let reason: string | undefined;
      const fired = new Set<number>();
      for (const stage of test.stages) {
        await edge.takeLogLines();
        const exchange = await sendRaw(edge.port, buildFtwRequest(stage.input), timeoutMs);
        const lines = await edge.takeLogLines();
        for (const l of lines) {
          const m = /\[id "(\d+)"\]/.exec(l);
          if (m) fired.add(Number(m[1]));
        }
        reason ??= judgeStage(stage.output, exchange, lines);
      }
      results.push({ title: test.title, file: test.file, passed: reason === undefined, reason, firedIds: [...fired] });
    }
  } finally {
    await edge.close();
  }
  return results;
}

export interface ReferenceResult {
  title: string;
  yaml: string;
  passed: boolean;
  status: string;
  firedIds: string;
}

export function loadReference(name: 'modsecurity-v2-results.tsv' | 'modsecurity-v3-results.tsv'): Map<string, ReferenceResult> {
  const rows = readFileSync(join(FIXTURES, name), 'utf8').trim().split('\n').slice(1);
  return new Map(
    rows.map((row) => {
      const [title, yaml, , passed, status, firedIds] = row.split('\t');
      return [title, { title, yaml, passed: passed === 'pass', status, firedIds: firedIds ?? '' }];
    }),
  );
}

/** Ignore list: `title<TAB>reason` lines; # comments. */
export function loadIgnoreList(path: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [title, reason] = line.split('\t');
    out.set(title.trim(), (reason ?? '').trim());
  }
  return out;
}

/** Per-file pass counts beside the two references, as printable lines. */
export function formatReport(results: readonly TestResult[]): string[] {
  const v2 = loadReference('modsecurity-v2-results.tsv');
  const v3 = loadReference('modsecurity-v3-results.tsv');
  const byFile = new Map<string, { total: number; ours: number; v2: number; v3: number }>();
  for (const r of results) {
    const row = byFile.get(r.file) ?? { total: 0, ours: 0, v2: 0, v3: 0 };
    row.total++;
    if (r.passed) row.ours++;
    if (v2.get(r.title)?.passed) row.v2++;
    if (v3.get(r.title)?.passed) row.v3++;
    byFile.set(r.file, row);
  }
  const lines = [`${'file'.padEnd(58)} ${'tests'.padStart(5)} ${'wafctl'.padStart(7)} ${'v2'.padStart(5)} ${'v3'.padStart(5)}`];
  const sum = { total: 0, ours: 0, v2: 0, v3: 0 };
  for (const [file, row] of [...byFile].sort()) {
    lines.push(`${file.padEnd(58)} ${String(row.total).padStart(5)} ${String(row.ours).padStart(7)} ${String(row.v2).padStart(5)} ${String(row.v3).padStart(5)}`);
    for (const k of ['total', 'ours', 'v2', 'v3'] as const) sum[k] += row[k];
  }
  const pct = (n: number) => `${((100 * n) / Math.max(1, sum.total)).toFixed(1)}%`;
  lines.push(`${'TOTAL'.padEnd(58)} ${String(sum.total).padStart(5)} ${String(sum.ours).padStart(7)} ${String(sum.v2).padStart(5)} ${String(sum.v3).padStart(5)}`);
  lines.push(`pass rate: wafctl ${pct(sum.ours)}, ModSecurity v2 ${pct(sum.v2)}, ModSecurity v3 ${pct(sum.v3)}`);
  return lines;
}
