import { describe, expect, it } from 'vitest';
import { EdgeLoadTotals, edgeLoadOf } from '../../../../daemon/proxy/hardening/edge-load-totals.js';
import { LoadShedder, type ShedderStats } from '../../../../daemon/proxy/hardening/load-shedder.js';
import type { EdgeLoad } from '../../../../shared/schemas/admin.js';

// What `daemon status` shows as the edge's load: the workers' cumulative reports summed in the primary,
// a replaced worker's counts kept, the sums never going backwards.

const stats = (s: Partial<ShedderStats>): ShedderStats => ({ inFlight: 0, admitted: 0, shedInFlight: 0, shedLoopDelay: 0, worstStallMs: 0, ...s });

/** Every counter of `later` at least that of `earlier` (in_flight is a level, not a count). */
function assertMonotonic(earlier: EdgeLoad, later: EdgeLoad): void {
  expect(later.admitted).toBeGreaterThanOrEqual(earlier.admitted);
  expect(later.shed_in_flight).toBeGreaterThanOrEqual(earlier.shed_in_flight);
  expect(later.shed_loop_delay).toBeGreaterThanOrEqual(earlier.shed_loop_delay);
  expect(later.worst_stall_ms).toBeGreaterThanOrEqual(earlier.worst_stall_ms);
}

describe('EdgeLoadTotals', () => {
  it('is all zeros before any report', () => {
    expect(new EdgeLoadTotals().total()).toEqual({ in_flight: 0, admitted: 0, shed_in_flight: 0, shed_loop_delay: 0, worst_stall_ms: 0 });
  });

  it('sums the last report of each worker; the worst stall is the largest', () => {
    const totals = new EdgeLoadTotals();
    totals.report(1, stats({ inFlight: 2, admitted: 100, shedInFlight: 3, shedLoopDelay: 1, worstStallMs: 40.4 }));
    totals.report(2, stats({ inFlight: 5, admitted: 50, shedInFlight: 0, shedLoopDelay: 7, worstStallMs: 612.6 }));
    // A newer report of worker 1 replaces its older one (reports are cumulative, not deltas).
    totals.report(1, stats({ inFlight: 1, admitted: 120, shedInFlight: 4, shedLoopDelay: 1, worstStallMs: 40.4 }));
    expect(totals.total()).toEqual({ in_flight: 6, admitted: 170, shed_in_flight: 4, shed_loop_delay: 8, worst_stall_ms: 613 });
  });

  it('a replaced worker: its counts stay in the sums, its in-flight requests do not, and the replacement adds on top', () => {
    const totals = new EdgeLoadTotals();
    const seen: EdgeLoad[] = [];
    const read = () => { const t = totals.total(); seen.push(t); return t; };
    totals.report(1, stats({ admitted: 10 }));
    totals.report(2, stats({ inFlight: 3, admitted: 30, shedInFlight: 2, worstStallMs: 900 }));
    read();
    totals.retire(2); // killed
    expect(read()).toEqual({ in_flight: 0, admitted: 40, shed_in_flight: 2, shed_loop_delay: 0, worst_stall_ms: 900 });
    // A report of the dead worker still queued behind its exit must not bring it back (double count).
    totals.report(2, stats({ admitted: 31 }));
    expect(read().admitted).toBe(40);
    // The replacement (a new cluster id) starts from 0.
    totals.report(3, stats({ admitted: 0 }));
    expect(read().admitted).toBe(40);
    totals.report(3, stats({ inFlight: 1, admitted: 5, shedLoopDelay: 2, worstStallMs: 20 }));
    expect(read()).toEqual({ in_flight: 1, admitted: 45, shed_in_flight: 2, shed_loop_delay: 2, worst_stall_ms: 900 });
    // Retiring a worker that never reported, or one twice, changes nothing.
    totals.retire(4);
    totals.retire(2);
    read();
    for (let i = 1; i < seen.length; i++) assertMonotonic(seen[i - 1], seen[i]);
  });

  it('stays monotonic through a random sequence of reports, restarts and deaths', () => {
    // Deterministic pseudo-random walk (no Math.random: a failure must replay).
    let seed = 12345;
    const next = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    const totals = new EdgeLoadTotals();
    const live = new Map<number, ShedderStats>([[1, stats({})], [2, stats({})]]);
    let nextId = 3;
    let everAdmitted = 0;
    let previous = totals.total();
    for (let step = 0; step < 2_000; step++) {
      const ids = [...live.keys()];
      const id = ids[next(ids.length)];
      const action = next(10);
      if (action < 8) {
        const s = live.get(id)!;
        const more = next(20);
        everAdmitted += more;
        const grown = { inFlight: next(5), admitted: s.admitted + more, shedInFlight: s.shedInFlight + next(3), shedLoopDelay: s.shedLoopDelay + next(2), worstStallMs: Math.max(s.worstStallMs, next(1000)) };
        live.set(id, grown);
        totals.report(id, grown);
      } else {
        // Dies: what it counted after its last report is lost, so only reported counts are expected.
        live.delete(id);
        totals.retire(id);
        live.set(nextId++, stats({}));
      }
      const now = totals.total();
      assertMonotonic(previous, now);
      previous = now;
    }
    expect(previous.admitted).toBe(everAdmitted);
  });
});

describe('LoadShedder.stats()', () => {
  it('the worst stall is the worst since start: reading it does not reset it', async () => {
    const shedder = new LoadShedder({ maxInFlight: 0, shedLoopDelayMs: 10_000 });
    try {
      await new Promise((r) => setTimeout(r, 40)); // the ticker has run
      const end = performance.now() + 80;
      while (performance.now() < end) { /* the loop is stalled */ }
      expect(shedder.admit()).toBe('ok');
      const first = edgeLoadOf(shedder.stats());
      expect(first.worst_stall_ms).toBeGreaterThanOrEqual(50);
      expect(edgeLoadOf(shedder.stats())).toEqual(first); // reading again changes nothing
      // A later request on a free loop stalls far less; the worst stays, however often it is read.
      // (It may grow, never shrink: a loaded machine can stall this process longer than the 80 ms.)
      await new Promise((r) => setTimeout(r, 40));
      expect(shedder.admit()).toBe('ok');
      const later = edgeLoadOf(shedder.stats());
      expect(later.worst_stall_ms).toBeGreaterThanOrEqual(first.worst_stall_ms);
      expect(later).toEqual({ ...first, in_flight: 2, admitted: 2, worst_stall_ms: later.worst_stall_ms });
    } finally {
      shedder.stop();
    }
  });
});
