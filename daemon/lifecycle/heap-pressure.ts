// The primary's safety valve under its V8 heap cap (shared/daemon-node-args.ts, issue 19).
//
// The cap keeps RSS under a line on a small VPS, but a cap turns anything that still grows into
// a crash of the whole daemon. The WAF index is the one large structure whose size we choose
// (its memory budget: events_index_memory_bytes), so when the live heap nears the cap the index
// gives room: its budget is halved, the oldest chunks go to the spill file at once, and a
// warning says so. Queries stay exact, only slower over spilled chunks.
//
// "Live heap" is read right after V8's full collections (perf_hooks 'gc' entries of kind major):
// at any other moment used_heap_size counts garbage too, and would cry wolf on every saw tooth.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';

export interface HeapReading {
  /** Bytes in use right after a full collection (the live set and what that collection kept). */
  usedBytes: number;
  /** The heap's limit (V8's heap_size_limit: the cap plus V8's own reserve). */
  limitBytes: number;
}

/** Live heap above this share of the limit is pressure: V8 slows down well before the limit. */
export const HEAP_PRESSURE_SHARE = 0.6;

/** Pure rule: pressure is a reading over the share. Kept apart so a unit test can drive it. */
export function underPressure(reading: HeapReading, share = HEAP_PRESSURE_SHARE): boolean {
  return reading.limitBytes > 0 && reading.usedBytes > reading.limitBytes * share;
}

export interface HeapPressureWatch {
  stop(): void;
}

/** Calls `relieve` after each full collection that leaves the live heap over the share of the limit. */
export function watchHeapPressure(relieve: (reading: HeapReading) => void, share = HEAP_PRESSURE_SHARE): HeapPressureWatch {
  const observer = new PerformanceObserver((list) => {
    const major = list.getEntries().some((entry) => ((entry as { detail?: { kind?: number } }).detail)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!major) return;
    const stats = v8.getHeapStatistics();
    const reading = { usedBytes: stats.used_heap_size, limitBytes: stats.heap_size_limit };
    if (underPressure(reading, share)) relieve(reading);
  });
  observer.observe({ entryTypes: ['gc'] });
  return { stop: () => observer.disconnect() };
}
