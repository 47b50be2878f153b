// V8's full (mark-compact) collections as they happen, with the heap figures right after one:
// the only moment used_heap_size is close to the live set (at any other it counts garbage too).
// Used by heap-pressure.ts (a module of its own so the valve reads as its rule alone).
import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';

export interface HeapReading {
  /** Bytes in use right after a full collection (the live set and what that collection kept). */
  usedBytes: number;
  /** The heap's limit (V8's heap_size_limit: a cap given with --max-old-space-size plus V8's reserve). */
  limitBytes: number;
}

export interface CollectionWatch {
  stop(): void;
}

/** Calls `onFull` after each full collection (gc entries arrive after it, asynchronously). */
export function watchFullCollections(onFull: (reading: HeapReading) => void): CollectionWatch {
  const observer = new PerformanceObserver((list) => {
    const major = list.getEntries().some((entry) => ((entry as { detail?: { kind?: number } }).detail)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!major) return;
    const stats = v8.getHeapStatistics();
    onFull({ usedBytes: stats.used_heap_size, limitBytes: stats.heap_size_limit });
  });
  observer.observe({ entryTypes: ['gc'] });
  return { stop: () => observer.disconnect() };
}
