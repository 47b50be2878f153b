// A one-line chart of hourly values: buckets of hours averaged down to the width available, drawn
// with the eight block heights. Zero stays a blank-ish lowest bar so quiet hours are visible.

const BARS = '▁▂▃▄▅▆▇█';

/** `values` averaged into at most `width` buckets of consecutive values (the Ink chart uses it too). */
export function bucketAverages(values: readonly number[], width: number): number[] {
  if (values.length === 0 || width < 1) return [];
  const buckets = Math.min(width, values.length);
  const averages: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * values.length) / buckets);
    const to = Math.floor(((b + 1) * values.length) / buckets);
    let sum = 0;
    for (let i = from; i < to; i++) sum += values[i];
    averages.push(sum / (to - from));
  }
  return averages;
}

export function sparkline(values: readonly number[], width: number): string {
  const sums = bucketAverages(values, width);
  if (sums.length === 0) return '';
  const max = Math.max(...sums);
  if (max === 0) return BARS[0].repeat(sums.length);
  return sums.map((v) => BARS[Math.min(BARS.length - 1, Math.floor((v / max) * (BARS.length - 1) + 0.5))]).join('');
}
