// The primary's safety valve under a V8 heap cap the operator set (WAFCTL_DAEMON_HEAP_MIB,
// shared/daemon-node-args.ts).
//
// A cap keeps RSS under a line, but turns anything that still grows into a crash of the whole
// daemon. The WAF index is the one large structure whose size we choose (its memory budget:
// events_index_memory_bytes), so when the live heap nears the cap the index gives room: its budget
// is halved, the oldest chunks go to the spill file at once, and a warning says so. Queries stay
// exact, only slower over spilled chunks. Without a cap the limit is V8's default (~4 GiB here),
// and the valve only opens that far up.
import { watchFullCollections, type CollectionWatch, type HeapReading } from './full-collections.js';

export type { HeapReading } from './full-collections.js';
export type HeapPressureWatch = CollectionWatch;

/** Live heap above this share of the limit is pressure: V8 slows down well before the limit. */
export const HEAP_PRESSURE_SHARE = 0.6;

/** Pure rule: pressure is a reading over the share. Kept apart so a unit test can drive it. */
export function underPressure(reading: HeapReading, share = HEAP_PRESSURE_SHARE): boolean {
  return reading.limitBytes > 0 && reading.usedBytes > reading.limitBytes * share;
}

/** Calls `relieve` after each full collection that leaves the live heap over the share of the limit. */
export function watchHeapPressure(relieve: (reading: HeapReading) => void, share = HEAP_PRESSURE_SHARE): HeapPressureWatch {
  return watchFullCollections((reading) => {
    if (underPressure(reading, share)) relieve(reading);
  });
}
