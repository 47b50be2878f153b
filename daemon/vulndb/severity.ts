// Severity from a CVSS v3.x base score (FIRST CVSS v3.1 §5), and the summary buckets of the
// vulndb README §5. The feed's `rating` text is never used: the score decides.

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'none' | 'unknown';

/** The score rounded to one decimal, then bucketed; no score, or one outside 0-10, is unknown. */
export function severityOf(score: number | null | undefined): Severity {
  if (typeof score !== 'number' || !Number.isFinite(score)) return 'unknown';
  const rounded = Math.round(score * 10) / 10;
  if (rounded < 0 || rounded > 10) return 'unknown';
  if (rounded >= 9) return 'critical';
  if (rounded >= 7) return 'high';
  if (rounded >= 4) return 'medium';
  if (rounded >= 0.1) return 'low';
  return 'none';
}

export interface Summary {
  total_vulnerabilities: number;
  critical: number;
  high: number;
  medium: number;
  low: number;
}

export function emptySummary(): Summary {
  return { total_vulnerabilities: 0, critical: 0, high: 0, medium: 0, low: 0 };
}

/**
 * Counts one (request item, record) match. Informational records are listed but never counted;
 * `none` and `unknown` count in the total only.
 */
export function countMatch(summary: Summary, severity: Severity, informational: boolean): void {
  if (informational) return;
  summary.total_vulnerabilities++;
  if (severity === 'critical' || severity === 'high' || severity === 'medium' || severity === 'low') {
    summary[severity]++;
  }
}

const SEVERITY_ORDER: readonly Severity[] = ['unknown', 'none', 'low', 'medium', 'high', 'critical'];

/** Position on the scale, for `--fail-on` style thresholds: unknown 0 < none < low < ... < critical. */
export function severityLevel(severity: Severity): number {
  return SEVERITY_ORDER.indexOf(severity);
}
