// `--fail-on LEVEL` for CI gates: exit 3 when the check found a counted (non-informational)
// vulnerability of that severity or worse. Default `none`: the exit code never depends on findings.

import type { VulnCheckResponse, VulnItem } from '../../shared/schemas/vulndb.js';

export const FAIL_ON_LEVELS = ['none', 'any', 'low', 'medium', 'high', 'critical'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

/** The exit code for "vulnerabilities at or above --fail-on were found". */
export const VULNERABILITIES_FOUND_EXIT = 3;

const RANK: Record<VulnItem['severity'], number> = { unknown: 0, none: 0, low: 1, medium: 2, high: 3, critical: 4 };
/** `any` counts every non-informational match, unknown and 0.0 included. */
const THRESHOLD: Record<Exclude<FailOn, 'none'>, number> = { any: 0, low: 1, medium: 2, high: 3, critical: 4 };

export function parseFailOn(value: string): FailOn | null {
  const v = value.trim().toLowerCase();
  return (FAIL_ON_LEVELS as readonly string[]).includes(v) ? (v as FailOn) : null;
}

export type GateResult =
  | { fail: false }
  | { fail: true; reason: 'found'; count: number }
  /** --fail-on was given but the daemon has no database: the gate cannot pass honestly. */
  | { fail: true; reason: 'no_database' };

export function gate(response: VulnCheckResponse, failOn: FailOn): GateResult {
  if (failOn === 'none') return { fail: false };
  if (response.message !== undefined) return { fail: true, reason: 'no_database' };
  const threshold = THRESHOLD[failOn];
  let count = 0;
  const lists = [response.cms.vulnerabilities, ...response.plugins.map((p) => p.vulnerabilities), ...response.themes.map((t) => t.vulnerabilities)];
  for (const list of lists) {
    for (const v of list) if (!v.informational && RANK[v.severity] >= threshold) count++;
  }
  return count > 0 ? { fail: true, reason: 'found', count } : { fail: false };
}
