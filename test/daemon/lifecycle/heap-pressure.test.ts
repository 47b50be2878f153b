// The heap-pressure valve: the rule on one reading, and the watch on V8's real full
// collections (a forced one, with a share of 0 so any live heap counts as pressure).
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { underPressure, watchHeapPressure, type HeapReading } from '../../../daemon/lifecycle/heap-pressure.js';

const MIB = 1024 * 1024;

describe('underPressure', () => {
  it('is a live heap over the share of the limit', () => {
    expect(underPressure({ usedBytes: 100 * MIB, limitBytes: 256 * MIB })).toBe(false);
    expect(underPressure({ usedBytes: 160 * MIB, limitBytes: 256 * MIB })).toBe(true);
    expect(underPressure({ usedBytes: 153 * MIB, limitBytes: 256 * MIB }, 0.6)).toBe(false);
    expect(underPressure({ usedBytes: 1, limitBytes: 0 })).toBe(false);
  });
});

/** The next call of a watch's callback, as a promise. */
function nextReading(): { promise: Promise<HeapReading>; callback: (reading: HeapReading) => void } {
  let callback!: (reading: HeapReading) => void;
  const promise = new Promise<HeapReading>((resolve) => (callback = resolve));
  return { promise, callback };
}

describe('watchHeapPressure', () => {
  it('reads the heap after a real full collection, and hears no more once stopped', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const readings: HeapReading[] = [];
    const first = nextReading();
    const watch = watchHeapPressure((reading) => {
      readings.push(reading);
      first.callback(reading);
    }, 0);
    try {
      gc();
      const reading = await first.promise; // gc entries are delivered after the collection, asynchronously
      expect(reading.usedBytes).toBeGreaterThan(0);
      expect(reading.limitBytes).toBe(v8.getHeapStatistics().heap_size_limit);
    } finally {
      watch.stop();
    }
    // After stop, a full collection reaches a second watch (the event to wait for) but not the first.
    const count = readings.length;
    const second = nextReading();
    const other = watchHeapPressure(second.callback, 0);
    try {
      gc();
      await second.promise;
    } finally {
      other.stop();
    }
    expect(readings.length).toBe(count);
  });
});
