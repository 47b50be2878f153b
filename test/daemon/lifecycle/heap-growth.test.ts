// The primary's heap growth setting: applied unless the operator gave node the flag. Its effect on
// RSS is measured in bench/flood, not here (a memory figure is not a unit test).
import v8 from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { limitHeapGrowth } from '../../../daemon/lifecycle/heap-growth.js';

describe('limitHeapGrowth', () => {
  afterEach(() => v8.setFlagsFromString('--heap-growing-percent=0')); // this test process back to V8's own growth

  it('applies the setting when node was given none', () => {
    expect(limitHeapGrowth({}, [])).toBe(true);
    expect(limitHeapGrowth({ NODE_OPTIONS: '--max-old-space-size=512' }, ['--enable-source-maps'])).toBe(true);
  });

  it("leaves the operator's own setting alone, in NODE_OPTIONS or node's argv, either spelling", () => {
    expect(limitHeapGrowth({ NODE_OPTIONS: '--heap-growing-percent=50' }, [])).toBe(false);
    expect(limitHeapGrowth({}, ['--heap_growing_percent=10'])).toBe(false);
  });
});
