// A bar chart `height` rows tall drawn with block characters, one column per bucket of hours
// (bucketAverages), top row first. Eighth blocks give each row eight steps, so a 4-row chart
// resolves 32 levels; any non-zero bucket shows at least the lowest step.
import { bucketAverages } from '../commands/analytics/sparkline.js';

const EIGHTHS = ' ▁▂▃▄▅▆▇█';

export function barRows(values: readonly number[], width: number, height: number, max?: number): string[] {
  const buckets = bucketAverages(values, width);
  const rows = Math.max(1, height);
  const top = max ?? Math.max(0, ...buckets);
  const levels = buckets.map((v) => (top === 0 || v === 0 ? 0 : Math.max(1, Math.round((v / top) * rows * 8))));
  const lines: string[] = [];
  for (let row = rows - 1; row >= 0; row--) {
    lines.push(levels.map((level) => EIGHTHS[Math.min(8, Math.max(0, level - row * 8))]).join(''));
  }
  return lines;
}

/** 1234567 -> 1.2M, for axis labels that must stay short. */
export function compact(n: number): string {
  if (n < 1000) return String(Math.round(n));
  const units: Array<[number, string]> = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [size, unit] of units) if (n >= size) return `${(n / size).toFixed(n >= size * 10 ? 0 : 1)}${unit}`;
  return String(n);
}
