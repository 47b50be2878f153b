// bench/proxy/summarize.mjs as the lead runs it (a real node process on a results file): paired ratios, the
// validity check (benign mixes all 2xx, the SQLi refused by every WAF) and the throughput and latency targets.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../bench/proxy/summarize.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wafctl-summarize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run { scenario: string; mix: string; round: number; rps: number; cpuUs: number; errStatus?: number; p50Ms?: number; p99Ms?: number; waf?: boolean; ownP50Ms?: number; ownP99Ms?: number }

function line(r: Run, mode: string): string {
  const requests = Math.round(r.rps * 10);
  const errStatus = r.errStatus ?? (r.mix === 'attack' && r.waf ? requests : 0);
  return JSON.stringify({
    mode, set: 'waf', scenario: r.scenario, mix: r.mix, round: r.round, waf: r.waf ?? false, build: 'abc1234', edge_args: '',
    at: '2026-11-22T08:00:00Z', requests, duration_s: 10, rps: r.rps, err_connect: 0, err_read: 0, err_write: 0,
    err_status: errStatus, err_timeout: 0, lat_p50_us: (r.p50Ms ?? 1) * 1000, lat_p99_us: (r.p99Ms ?? 3) * 1000,
    sut_cpu_s: (r.cpuUs * requests) / 1e6, origin_cpu_s: 0, wrk_cpu_s: 0, foreign_cpu_pct: 2,
    ...(r.ownP50Ms === undefined ? {} : { edge_entries: requests, edge_p50_us: r.ownP50Ms * 1000, edge_p99_us: (r.ownP99Ms ?? 0) * 1000 }),
  });
}

function summarize(runs: Run[], mode = 'throughput'): string {
  const file = join(dir, `${mode}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, runs.map((r) => line(r, mode)).join('\n') + '\n');
  return execFileSync(process.execPath, [SCRIPT, file], { encoding: 'utf8' });
}

/** Two rounds of every cell of the WAF set, with the edge's req/s per mix as given. */
function wafSet(edge: { get: number; post: number; attack: number }, over: Partial<Record<string, Partial<Run>>> = {}): Run[] {
  const runs: Run[] = [];
  for (const round of [1, 2]) {
    const cells: Run[] = [
      { scenario: 'nginx-proxy', mix: 'get', round, rps: 30_000, cpuUs: 26 },
      { scenario: 'nginx-proxy', mix: 'post', round, rps: 25_000, cpuUs: 30 },
      { scenario: 'modsec', mix: 'get', round, rps: 600, cpuUs: 3000, waf: true },
      { scenario: 'modsec', mix: 'post', round, rps: 400, cpuUs: 5000, waf: true },
      { scenario: 'modsec', mix: 'attack', round, rps: 700, cpuUs: 2800, waf: true },
      { scenario: 'apache-modsec2', mix: 'get', round, rps: 350, cpuUs: 5000, waf: true },
      { scenario: 'apache-modsec2', mix: 'post', round, rps: 220, cpuUs: 8000, waf: true },
      { scenario: 'apache-modsec2', mix: 'attack', round, rps: 340, cpuUs: 4500, waf: true },
      { scenario: 'edge-waf', mix: 'get', round, rps: edge.get, cpuUs: 300, waf: true },
      { scenario: 'edge-waf', mix: 'post', round, rps: edge.post, cpuUs: 500, waf: true },
      { scenario: 'edge-waf', mix: 'attack', round, rps: edge.attack, cpuUs: 250, waf: true },
      { scenario: 'edge-off', mix: 'get', round, rps: 12_000, cpuUs: 110 },
      { scenario: 'edge-off', mix: 'post', round, rps: 10_000, cpuUs: 120 },
    ];
    runs.push(...cells.map((c) => ({ ...c, ...over[`${c.scenario}|${c.mix}|${round}`] })));
  }
  return runs;
}

describe('bench/proxy/summarize.mjs', () => {
  it('prints paired ratios and judges the throughput targets', () => {
    const out = summarize(wafSet({ get: 6_600, post: 2_800, attack: 5_000 }));
    expect(out).toContain('valid: benign mixes all 2xx, SQLi refused by every WAF in every run');
    expect(out).toMatch(/\| edge-waf ÷ modsec \| get \| 11\.00 \(11\.00–11\.00\) \| 10\.00 \|/);
    expect(out).toMatch(/WAF-on benign GET ≥ 10× nginx \+ ModSecurity v3 req\/s \| 11\.00× \| met \|/);
    expect(out).toMatch(/WAF-on form POST ≥ 8× nginx \+ ModSecurity v3 req\/s \| 7\.00× \| NOT met \|/);
    expect(out).toMatch(/WAF-on post ahead of Apache \+ ModSecurity v2 \| 12\.73× \| met \|/);
    expect(out).toMatch(/WAF-off get ≥ 0\.30× the plain nginx proxy \| 0\.40× \| met \|/);
    expect(out).toMatch(/\| modsec ÷ nginx-proxy \| get \| 0\.020 /);
    // ModSecurity 3,000 µs per GET: 10x leaves the edge 300, of which the WAF-off edge takes 110.
    expect(out).toMatch(/\| get \| 3,000 \| ≤ 300 \| 300 \| 110 \| 190 \| ≤ 190 \|/);
    expect(out).toMatch(/\| post \| 5,000 \| ≤ 625 \| 500 \| 120 \| 380 \| ≤ 505 \|/);
  });

  it('calls a run invalid when a benign request is refused or a WAF lets the SQLi through', () => {
    const out = summarize(wafSet({ get: 6_600, post: 2_800, attack: 5_000 }, {
      'edge-waf|get|2': { errStatus: 17 },
      'modsec|attack|1': { errStatus: 6_990 },
    }));
    expect(out).toContain('INVALID RUN:');
    expect(out).toContain('r2 edge-waf|get: 17 non-2xx answers to benign requests');
    expect(out).toContain('r1 modsec|attack: 10 of 7000 SQLi requests not refused');
    expect(out).not.toContain('valid: benign');
  });

  it('judges the latency targets on the WAF-on edge in latency mode', () => {
    const runs = wafSet({ get: 240, post: 235, attack: 240 }, {
      'edge-waf|get|1': { p50Ms: 1.2, p99Ms: 3.5, ownP50Ms: 0.8, ownP99Ms: 2 }, 'edge-waf|get|2': { p50Ms: 1.4, p99Ms: 3.9, ownP50Ms: 1, ownP99Ms: 3 },
      'edge-waf|post|1': { p50Ms: 1.6, p99Ms: 5 }, 'edge-waf|post|2': { p50Ms: 1.8, p99Ms: 6 },
    });
    const out = summarize(runs, 'latency');
    expect(out).toMatch(/WAF-on get p50 < 1\.5 ms at ~240 req\/s \| 1\.30 ms \| met \|/);
    expect(out).toMatch(/WAF-on get p99 < 4 ms \| 3\.70 ms \| met \|/);
    expect(out).toMatch(/WAF-on post p50 < 1\.5 ms at ~235 req\/s \| 1\.70 ms \| NOT met \|/);
    // The daemon's own request_time, where run.sh recorded it (edge-waf get only here).
    expect(out).toMatch(/\| edge-waf \| get \| 1\.30 \/ 3\.70 \| 0\.90 \/ 2\.50 \|/);
    expect(out).not.toMatch(/\| edge-waf \| post \| [0-9.]+ \/ [0-9.]+ \| [0-9.]+ \/ [0-9.]+ \|$/m);
  });

  it('refuses to run without a results file', () => {
    expect(() => execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8', stdio: 'pipe' })).toThrow(/usage/);
  });
});
