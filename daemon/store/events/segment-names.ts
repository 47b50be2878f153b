// Segment files: `<kind>-<YYYY-MM-DD>.jsonl`, one per kind and UTC day of the entries' own
// timestamps (not of their arrival), so that dropping a day segment drops exactly that day's
// hours from the rollups and the index.
import fs from 'node:fs';

export type EventKind = 'waf' | 'access';
export const EVENT_KINDS: readonly EventKind[] = ['waf', 'access'];

export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

/** Days since the epoch (UTC) of an instant in ms. */
export const dayOfMs = (ms: number): number => Math.floor(ms / MS_PER_DAY);
export const hourOfMs = (ms: number): number => Math.floor(ms / MS_PER_HOUR);

export const dayName = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10);

export const segmentFileName = (kind: EventKind, day: number): string => `${kind}-${dayName(day)}.jsonl`;

/** segmentFileName with a small cache: appends ask for the same few days over and over. */
export function segmentNamer(kind: EventKind): (day: number) => string {
  const names = new Map<number, string>();
  return (day) => {
    let n = names.get(day);
    if (n === undefined) {
      if (names.size > 1024) names.clear();
      names.set(day, (n = segmentFileName(kind, day)));
    }
    return n;
  };
}

const SEGMENT_RE = /^(waf|access)-(\d{4})-(\d{2})-(\d{2})\.jsonl$/;

export interface SegmentRef {
  kind: EventKind;
  day: number;
  file: string;
}

export function parseSegmentFileName(file: string): SegmentRef | null {
  const m = SEGMENT_RE.exec(file);
  if (!m) return null;
  const ms = Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]));
  if (!Number.isFinite(ms) || dayName(dayOfMs(ms)) !== `${m[2]}-${m[3]}-${m[4]}`) return null;
  return { kind: m[1] as EventKind, day: dayOfMs(ms), file };
}

/** Segments of one kind in the directory, oldest day first. */
export function listSegments(dir: string, kind: EventKind): SegmentRef[] {
  const out: SegmentRef[] = [];
  for (const f of fs.readdirSync(dir)) {
    const ref = parseSegmentFileName(f);
    if (ref && ref.kind === kind) out.push(ref);
  }
  return out.sort((a, b) => a.day - b.day);
}
