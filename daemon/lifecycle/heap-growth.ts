// How far V8 lets the primary's heap grow past its live set before the next full collection
// (memory under a scanner flood: bench/flood/README.md).
//
// By default V8 sets the next old-generation limit at up to about twice what a full collection
// kept alive, so a daemon whose live set is steady still shows RSS as a saw: a 10-minute flood
// whose live set stayed near 300 MiB peaked at 440-564 MiB. Growth of 30 % past the live set makes
// full collections come sooner and keeps RSS near what is live. But sooner collections cost CPU,
// and on ordinary traffic the primary's live set is small (tens of MiB), where the saw does not
// matter: limited there, they cost ~2 % of a form POST's CPU (bench/proxy/ab-edge.sh). So the limit
// applies only while the live set is large: from TIGHT_FROM_BYTES after a full collection, until it
// falls below LOOSE_BELOW_BYTES (V8's own heuristics again). V8 reads the flag at each collection,
// so setting it at run time works however the daemon was started (wafctl, systemd, by hand).
//
// The edge workers keep V8's default: their live set is small (~145 MiB RSS through the same flood).
// No hard cap by default (shared/daemon-node-args.ts says why).
import v8 from 'node:v8';
import { watchFullCollections, type CollectionWatch } from './full-collections.js';

/** Heap growth per full collection while the live set is large, in percent (V8's --heap-growing-percent). */
export const HEAP_GROWING_PERCENT = 30;
const MIB = 1024 * 1024;
export const TIGHT_FROM_BYTES = 96 * MIB;
export const LOOSE_BELOW_BYTES = 64 * MIB;

export interface GrowthThresholds {
  tightFromBytes: number;
  looseBelowBytes: number;
}

/** Pure rule with hysteresis: whether growth is limited after a full collection left `liveBytes`. */
export function limitAfter(liveBytes: number, limited: boolean, t: GrowthThresholds = { tightFromBytes: TIGHT_FROM_BYTES, looseBelowBytes: LOOSE_BELOW_BYTES }): boolean {
  return limited ? liveBytes >= t.looseBelowBytes : liveBytes >= t.tightFromBytes;
}

export interface HeapGrowthWatch extends CollectionWatch {
  /** Whether growth is limited now. */
  readonly limited: boolean;
}

/**
 * Limits heap growth while the live set is large, unless the operator gave node the flag
 * (NODE_OPTIONS or node's own argv): then null, and V8 does as told.
 */
export function limitHeapGrowth(
  env: Readonly<Record<string, string | undefined>> = process.env,
  execArgv: readonly string[] = process.execArgv,
  thresholds?: GrowthThresholds,
): HeapGrowthWatch | null {
  const given = /--heap[-_]growing[-_]percent\b/;
  if (given.test(env.NODE_OPTIONS ?? '') || execArgv.some((arg) => given.test(arg))) return null;
  let limited = false;
  const watch = watchFullCollections((reading) => {
    const next = limitAfter(reading.usedBytes, limited, thresholds);
    if (next === limited) return;
    limited = next;
    // 0 is V8's "not set": its own growth heuristics.
    v8.setFlagsFromString(`--heap-growing-percent=${limited ? HEAP_GROWING_PERCENT : 0}`);
  });
  return {
    stop: () => watch.stop(),
    get limited() {
      return limited;
    },
  };
}
