// The primary's heap growth limit: on while the live set is large, off again below a lower line
// (hysteresis), never over the operator's own flag. Its effect on RSS is measured in bench/flood,
// not here (a memory figure is not a unit test).
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFullCollections } from '../../../daemon/lifecycle/full-collections.js';
import { limitAfter, limitHeapGrowth, type HeapGrowthWatch } from '../../../daemon/lifecycle/heap-growth.js';

const MIB = 1024 * 1024;
const lines = { tightFromBytes: 96 * MIB, looseBelowBytes: 64 * MIB };

describe('limitAfter', () => {
  it('limits from the upper line and lets go only below the lower one', () => {
    expect(limitAfter(50 * MIB, false, lines)).toBe(false);
    expect(limitAfter(80 * MIB, false, lines)).toBe(false);
    expect(limitAfter(96 * MIB, false, lines)).toBe(true);
    expect(limitAfter(80 * MIB, true, lines)).toBe(true);
    expect(limitAfter(63 * MIB, true, lines)).toBe(false);
  });
});

describe('limitHeapGrowth', () => {
  let watch: HeapGrowthWatch | null = null;
  afterEach(() => {
    watch?.stop();
    watch = null;
    v8.setFlagsFromString('--heap-growing-percent=0'); // this test process back to V8's own growth
  });

  it("leaves the operator's own setting alone, in NODE_OPTIONS or node's argv, either spelling", () => {
    expect(limitHeapGrowth({ NODE_OPTIONS: '--heap-growing-percent=50' }, [])).toBeNull();
    expect(limitHeapGrowth({}, ['--heap_growing_percent=10'])).toBeNull();
  });

  it('limits growth after a real full collection that leaves the live set over the line', async () => {
    watch = limitHeapGrowth({}, [], { tightFromBytes: 1, looseBelowBytes: 0 });
    expect(watch).not.toBeNull();
    expect(watch!.limited).toBe(false);
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // A second watch, registered after the first, hears the same collection after it: the event to wait for.
    let heard!: () => void;
    const collected = new Promise<void>((resolve) => (heard = resolve));
    const after = watchFullCollections(() => heard());
    try {
      gc();
      await collected;
    } finally {
      after.stop();
    }
    expect(watch!.limited).toBe(true);
  });
});
