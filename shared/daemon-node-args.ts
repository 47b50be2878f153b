// The node flags the daemon process is started with: a V8 old-space cap when the operator asks
// for one (memory under a scanner flood).
//
// No cap by default. The daemon keeps RSS near its live set on its own (lifecycle/heap-growth.ts)
// and its large structures are bounded (the WAF index budget), but not every per-key table is: a
// flood from 2.1 million distinct client addresses grew the IP table to ~230 MiB, and under a
// 256 MiB cap the primary died of it (bench/flood/README.md). Growth is slower to hurt than a
// crash. An operator who would rather have a hard line (and a restart by the service manager) sets
// WAFCTL_DAEMON_HEAP_MIB; the heap-pressure guard (lifecycle/heap-pressure.ts) then spills the WAF
// index harder as the live set nears the cap. The edge workers inherit the flag (cluster.fork
// passes execArgv on); a worker that dies is replaced.
//
// The operator's word wins: a --max-old-space-size already in NODE_OPTIONS is left alone.

export class DaemonHeapError extends Error {}

export function daemonNodeArgs(env: Readonly<Record<string, string | undefined>>): string[] {
  if (/--max-old-space-size\b/.test(env.NODE_OPTIONS ?? '')) return [];
  const raw = env.WAFCTL_DAEMON_HEAP_MIB;
  if (raw === undefined || raw === '') return [];
  if (!/^\d+$/.test(raw.trim())) throw new DaemonHeapError(`WAFCTL_DAEMON_HEAP_MIB must be a whole number of MiB (0: no cap, the default), got ${JSON.stringify(raw)}`);
  const mib = Number(raw.trim());
  if (mib === 0) return [];
  if (mib < 64) throw new DaemonHeapError(`WAFCTL_DAEMON_HEAP_MIB must be 0 (no cap) or at least 64, got ${mib}`);
  return [`--max-old-space-size=${mib}`];
}
