// A rule over a list where values repeat (a JSON array of objects: 387 arguments, 179 distinct
// values, 8 distinct names) first tries each distinct value once. Misses are remembered on the
// value's leader (miss-bits.ts), so when no distinct value matches, the entries need not be
// walked one by one; when one does, the ordinary walk follows (captures and actions happen per
// entry, in order, as without this step).
import type { VarEntry } from '../collections/keyed-list.js';
import type { CompiledTarget } from '../variables/targets.js';
import type { Transaction } from '../transaction.js';
import { GateColumns } from './gate-columns.js';

let pass = 0;

/** The leaders of `entries` in first-seen order, or null when no value repeats. */
function leadersOf(entries: readonly VarEntry[]): readonly VarEntry[] | null {
  if (entries.length < 2) return null;
  const mark = ++pass;
  const leaders: VarEntry[] = [];
  for (const entry of entries) {
    const leader = entry.leader;
    if (leader.mark === mark) continue;
    leader.mark = mark;
    leaders.push(leader);
  }
  return leaders.length < entries.length ? leaders : null;
}

/** A slotted list's distinct values (leaders), kept by the transaction for the phase. */
export class DistinctValues {
  private columns: GateColumns | undefined = undefined;

  constructor(readonly leaders: readonly VarEntry[]) {}

  /** The leaders' byte-gate masks side by side (gate-columns.ts), made on first use. */
  gateColumns(byteClasses: Int32Array): GateColumns {
    this.columns ??= new GateColumns(this.leaders, byteClasses);
    return this.columns;
  }
}

/** The distinct values of a slotted target's entries (computed once per phase), or null. */
export function distinctValues(tx: Transaction, target: CompiledTarget, entries: readonly VarEntry[]): DistinctValues | null {
  const slot = target.slot!;
  if (slot < 0) return null;
  let distinct = tx.slotDistinct[slot];
  if (distinct === undefined) {
    const leaders = leadersOf(entries);
    distinct = leaders === null ? null : new DistinctValues(leaders);
    tx.slotDistinct[slot] = distinct;
  }
  return distinct;
}
