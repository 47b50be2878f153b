// The node flags the daemon process is started with (issue 19: memory under a scanner flood).
//
// Without a cap V8 lets the primary's garbage (WAF events promoted while queued and while their
// group is written) pile up to about twice the live set before a full collection: a 10-minute
// flood whose live set stayed near 300 MiB showed RSS tops of 440-564 MiB. A 2 GB VPS needs a
// line that holds, so the daemon runs with an old-space cap well above its bounded live set
// (the WAF index budget, events_index_memory_bytes, plus the per-key tables) and the heap-pressure
// guard (daemon/lifecycle/heap-pressure.ts) spills the index harder if the live set ever nears it.
// The cluster's edge workers inherit the flag (cluster.fork passes execArgv on); they stay near
// 150 MiB under the same flood.
//
// The operator's word wins: a --max-old-space-size already in NODE_OPTIONS is left alone, and
// WAFCTL_DAEMON_HEAP_MIB sets another cap (0: none, V8's default).

/** MiB of V8 old space for the daemon when nothing else is said (README: "Memory"). */
export const DEFAULT_DAEMON_HEAP_MIB = 256;

export class DaemonHeapError extends Error {}

export function daemonNodeArgs(env: Readonly<Record<string, string | undefined>>): string[] {
  if (/--max-old-space-size\b/.test(env.NODE_OPTIONS ?? '')) return [];
  const raw = env.WAFCTL_DAEMON_HEAP_MIB;
  if (raw === undefined || raw === '') return [`--max-old-space-size=${DEFAULT_DAEMON_HEAP_MIB}`];
  if (!/^\d+$/.test(raw.trim())) throw new DaemonHeapError(`WAFCTL_DAEMON_HEAP_MIB must be a whole number of MiB (0: no cap), got ${JSON.stringify(raw)}`);
  const mib = Number(raw.trim());
  if (mib === 0) return [];
  if (mib < 64) throw new DaemonHeapError(`WAFCTL_DAEMON_HEAP_MIB must be 0 (no cap) or at least 64, got ${mib}`);
  return [`--max-old-space-size=${mib}`];
}
