// How far V8 lets the primary's heap grow past its live set before the next full collection
// (memory under a scanner flood: bench/flood/README.md).
//
// By default V8 sets the next old-generation limit at up to about twice what a full collection
// kept alive, so a daemon whose live set is steady still shows RSS as a saw: a 10-minute flood
// whose live set stayed near 300 MiB peaked at 440-564 MiB. Growth of 30 % past the live set makes
// full collections come sooner (a little more GC CPU) and keeps RSS near what is live: the same
// flood with it stayed at 192-209 MiB for 3.3 million attacks. Limiting it only while the live
// set is over 96 MiB was tried and did not hold (353 MiB and rising after 460,000 attacks): the
// flood's live set stays under that line while its garbage does not. V8 reads the flag at each
// collection, so setting it at run time works however the daemon was started (wafctl, systemd,
// by hand).
//
// The primary only: the edge workers' live set is small (~145 MiB RSS through the same flood), and
// in them the sooner collections cost ~1.5 % of a form POST's CPU (bench/proxy/ab-edge.sh).
// No hard cap by default (shared/daemon-node-args.ts says why).
import v8 from 'node:v8';

/** Heap growth per full collection, in percent of the live set (V8's --heap-growing-percent). */
export const HEAP_GROWING_PERCENT = 30;

/** Applies HEAP_GROWING_PERCENT unless the operator gave node the flag (NODE_OPTIONS or node's own argv). */
export function limitHeapGrowth(env: Readonly<Record<string, string | undefined>> = process.env, execArgv: readonly string[] = process.execArgv): boolean {
  const given = /--heap[-_]growing[-_]percent\b/;
  if (given.test(env.NODE_OPTIONS ?? '') || execArgv.some((arg) => given.test(arg))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
