import type { ProbeResult } from './differential.js';

// The comparison table (RESULTS.md and the test's output): one row per probe, our edge's verdict
// beside nginx + ModSecurity v3's.

function cell(r: ProbeResult | undefined): string {
  if (!r) return 'not run';
  const statuses = r.statuses.length ? r.statuses.join(' ') : 'no answer';
  return `${r.verdict} (${statuses})`;
}

export function resultsTable(ours: ProbeResult[], theirs: ProbeResult[] | null, theirsNote: string): string {
  const lines = [
    '| class | probe | wafctl edge | nginx + ModSecurity v3 |',
    '|---|---|---|---|',
  ];
  for (const r of ours) {
    const their = r.probe.notForNginx ? `not run: ${r.probe.notForNginx}` : theirs ? cell(theirs.find((t) => t.probe === r.probe)) : theirsNote;
    lines.push(`| ${r.probe.class} | ${r.probe.name.replace(/\|/g, '\\|')} | ${cell(r)} | ${their} |`);
  }
  const count = (rs: ProbeResult[], v: string) => rs.filter((r) => r.verdict === v).length;
  const summary = (rs: ProbeResult[]) => ['refused', 'forwarded-clean', 'BYPASS', 'timeout'].map((v) => `${count(rs, v)} ${v}`).join(', ');
  lines.push('', `wafctl edge: ${summary(ours)}.`, `nginx + ModSecurity v3: ${theirs ? summary(theirs) : theirsNote}.`);
  return lines.join('\n');
}
