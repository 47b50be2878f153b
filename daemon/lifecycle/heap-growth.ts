// How far V8 lets the heap grow past its live set before the next full collection (issue 19:
// memory under a scanner flood).
//
// By default V8 sets the next old-generation limit at up to about twice what a full collection
// kept alive (more when collections are fast), so a daemon whose live set is steady still shows
// RSS as a saw: a 10-minute flood whose live set stayed near 300 MiB peaked at 440-564 MiB. A lower
// growing factor makes full collections come sooner (a little more GC CPU) and keeps RSS near the
// live set. It is set at run time (V8 reads the flag at each collection), so it holds however the
// daemon is started: `wafctl daemon start`, systemd, by hand. The primary only: the edge workers'
// live set is small (~145 MiB RSS through the same flood), and in them the sooner collections cost
// ~1.5 % of a form POST's CPU (bench/proxy/ab-edge.sh). A hard cap (--max-old-space-size)
// is not set by default: a cap turns anything that still grows (the per-address tables under a
// flood from millions of client addresses) from growth into a crash of the whole daemon; an
// operator who prefers a restart to growth sets WAFCTL_DAEMON_HEAP_MIB (shared/daemon-node-args.ts).
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
