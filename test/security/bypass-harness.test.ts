import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineInspector } from '../../daemon/rule-sets/engine-inspector.js';
import { findCrs, RuleGroups } from '../../daemon/rule-sets/rule-groups.js';
import { judgeAt, runProbes, type ProbeResult, type ProxyUnderTest } from './differential.js';
import { KNOWN_BYPASSES } from './known-bypasses.js';
import { nginxModSecurityMissing, startNginxModSecurity, type NginxModSecurity } from './nginx-modsecurity.js';
import { DEFAULT_TIME_BUDGET_MS, startOurEdge, type RunningEdge } from './our-edge.js';
import { BODY_LIMIT, CATALOGUE } from './probe-catalogue.js';
import { startRecordingOrigin, type RecordingOrigin } from './recording-origin.js';
import { resultsTable } from './results-table.js';

// The differential bypass harness (README.md beside this file): every probe of the catalogue is
// sent as raw bytes to our edge (and to nginx + ModSecurity v3, for comparison); whatever reached
// the origin, written plainly, must pass the same rule set, else the probe is a bypass. Only our
// edge's verdicts are asserted; nginx's are information (RESULTS.md).

const crs = findCrs('/usr/share/modsecurity-crs');
const nginxMissing = nginxModSecurityMissing();

describe.skipIf(crs === null)('differential bypass harness (CRS; .ci/run installs modsecurity-crs)', () => {
  const closers: Array<() => Promise<void>> = [];
  let ours: ProbeResult[] = [];
  let theirs: ProbeResult[] | null = null;
  let naive: ProbeResult[] = [];

  beforeAll(async () => {
    const groups = new RuleGroups(crs, { prepareAnnounced: false });
    groups.forParanoia(1);
    // The daemon's default time budget for the edge under test; the judge has none (our-edge.ts).
    const inspector = createEngineInspector(groups, { timeBudgetMs: DEFAULT_TIME_BUDGET_MS });
    const judgeInspector = createEngineInspector(groups);
    const started = <T extends { close(): Promise<void> }>(x: T): T => { closers.push(() => x.close()); return x; };

    // The judge: a twin of the edge under test (same site settings, same engine), its own origin.
    const judgeOrigin = started(await startRecordingOrigin());
    const judge = started(await startOurEdge(judgeOrigin.url, judgeInspector, { kind: 'judge' }));
    const passesOurJudge = judgeAt(judge.port);

    const origin = started(await startRecordingOrigin());
    const edge: RunningEdge = started(await startOurEdge(origin.url, inspector, { kind: 'under-test', maxBodyBytes: BODY_LIMIT }));
    const nginxRun = (async () => {
      if (nginxMissing) return null;
      const theirOrigin: RecordingOrigin = started(await startRecordingOrigin());
      const nginx: NginxModSecurity = started(await startNginxModSecurity(theirOrigin.port));
      return runProbes({ name: 'nginx', port: nginx.port, origin: theirOrigin, passesJudge: judgeAt(nginx.port) }, CATALOGUE.filter((p) => !p.notForNginx));
    })();
    ours = await runProbes({ name: 'ours', port: edge.port, origin, passesJudge: passesOurJudge }, CATALOGUE);

    // A proxy that forwards everything: the harness must call its controls bypasses.
    const naiveOrigin = started(await startRecordingOrigin());
    const naiveEdge = started(await startOurEdge(naiveOrigin.url, inspector, { kind: 'naive' }));
    const naiveProxy: ProxyUnderTest = { name: 'naive', port: naiveEdge.port, origin: naiveOrigin, passesJudge: passesOurJudge };
    naive = await runProbes(naiveProxy, CATALOGUE.filter((p) => p.control));

    theirs = await nginxRun;
    const table = resultsTable(ours, theirs, nginxMissing ? `skipped: ${nginxMissing}` : '');
    console.log(`\nDifferential bypass harness\n\n${table}\n`);
    if (process.env.WAFCTL_WRITE_RESULTS === '1') writeResults(table);
  }, 180_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('the harness flags a proxy that inspects nothing (every control is a BYPASS there)', () => {
    expect(naive.length).toBeGreaterThan(0);
    expect(naive.map((r) => [r.probe.name, r.verdict])).toEqual(naive.map((r) => [r.probe.name, 'BYPASS']));
  });

  it('our edge refuses every control payload sent plainly', () => {
    const controls = ours.filter((r) => r.probe.control);
    expect(controls.length).toBeGreaterThan(0);
    expect(controls.map((r) => [r.probe.name, r.verdict])).toEqual(controls.map((r) => [r.probe.name, 'refused']));
  });

  it('every refusal of our edge carries its request id', () => {
    expect(ours.filter((r) => r.refusalsWithoutId > 0).map((r) => r.probe.name)).toEqual([]);
  });

  it.each(CATALOGUE.filter((p) => !KNOWN_BYPASSES.has(p.name)).map((p) => [p.class, p.name]))('%s: %s: nothing gets past our edge uninspected', (_cls, name) => {
    const r = ours.find((x) => x.probe.name === name)!;
    expect({ verdict: r.verdict, bypassing: r.bypassing }).toEqual({ verdict: expect.stringMatching(/^(refused|forwarded-clean)$/), bypassing: [] });
  });

  it.each([...KNOWN_BYPASSES].map(([name, why]) => [name, why]))('known bypass, still open: %s (%s)', (name) => {
    const r = ours.find((x) => x.probe.name === name);
    expect(r, `${name} is not in the catalogue`).toBeDefined();
    // Fixed? Then remove it from known-bypasses.ts: the probe joins the ones asserted above.
    expect(r!.verdict).toBe('BYPASS');
  });
});

function writeResults(table: string): void {
  const path = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
  writeFileSync(path, `# Differential bypass harness: results\n\nGenerated by \`WAFCTL_WRITE_RESULTS=1 npx vitest run test/security\` (${new Date().toISOString().slice(0, 10)}). ` +
    'Verdicts: README.md. Statuses are what the client got, in order (the end request the harness appends included).\n\n' + table + '\n');
}
