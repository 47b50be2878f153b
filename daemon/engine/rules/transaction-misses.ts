// A transaction's view of operator misses (miss-bits.ts): each value's bits, from the rule set's
// memo (miss-memo.ts) or, for a value the memo does not keep, from rows of the transaction's own;
// and, per phase, the AND of the bits of each miss group's values (miss-groups.ts, computed a word
// at a time: miss-summaries.ts), so that a rule known to miss on everything it reads is skipped
// whole. (A
// per-target test in the rule loop as well, for rules that are only partly known, bought nothing
// measurable on the proxy bench's requests and cost the unique-values case; not kept.)
import type { VarEntry } from '../collections/keyed-list.js';
import type { CompiledTarget } from '../variables/targets.js';
import type { Rule } from './rule.js';
import { RowAllocator, type MissMemo, type MissRow } from './miss-memo.js';
import type { MissSummaries } from './miss-summaries.js';

const NO_ROWS = new Int32Array(0);

/** A slot's entries for the phase (selected on first use: rules/evaluate.ts). */
export type SlotEntries<T> = (owner: T, target: CompiledTarget) => readonly VarEntry[];

export class TransactionMisses {
  /** Rows for values the memo does not keep (made on first need). */
  private localRows: RowAllocator | undefined;
  private readonly found: MissRow = { table: NO_ROWS, row: 0 };
  /** This phase's stamp in the rule set's summaries (miss-summaries.ts). */
  private stamp = 0;

  constructor(
    private readonly memo: MissMemo,
    private readonly summaries: MissSummaries,
    private readonly slotEntries: ReadonlyArray<readonly VarEntry[] | undefined>,
    private readonly groups: ReadonlyArray<readonly CompiledTarget[]>,
  ) {}

  /** A new phase: slots hold other entries. */
  newPhase(): void {
    this.stamp = this.summaries.nextStamp();
  }

  /** The rule (by its miss bit's word and mask) is known to miss on this value, in this
   *  transaction or an earlier one of the same rule set. */
  known(cell: VarEntry, word: number, mask: number): boolean {
    if (cell.missOwner !== this.memo) this.attach(cell);
    return (cell.misses![cell.missRow + word] & mask) !== 0;
  }

  /** Notes that a rule's operator returned false on a value. */
  remember(cell: VarEntry, word: number, mask: number): void {
    if (cell.missOwner !== this.memo) this.attach(cell);
    cell.misses![cell.missRow + word] |= mask;
  }

  /** The word of the rule's group bits (of a miss group; bit set: known to miss on every value
   *  of every slot the rule reads, the phase's lists, of which a rule's own entries are a
   *  subset), as known when the word was first asked for in this phase. */
  groupWordOf<T>(rule: Rule, owner: T, fill: SlotEntries<T>): number {
    const s = this.summaries;
    const word = rule.missBit >> 5;
    const at = rule.missGroup * s.words + word;
    return s.groupStamp[at] === this.stamp ? s.groupBits[at] : this.groupWord(rule.missGroup, word, at, owner, fill);
  }

  /** Gives the value its bits: the memo's row (one lookup per distinct value and transaction),
   *  or a row of the transaction's own for a value the memo does not keep. */
  private attach(cell: VarEntry): void {
    const found = this.found;
    if (this.memo.find(cell.value, found)) {
      cell.misses = found.table;
      cell.missRow = found.row;
    } else {
      const rows = (this.localRows ??= new RowAllocator(this.memo.words, 64));
      cell.missRow = rows.allocate();
      cell.misses = rows.table;
    }
    cell.missOwner = this.memo;
  }

  private groupWord<T>(group: number, word: number, at: number, owner: T, fill: SlotEntries<T>): number {
    const s = this.summaries;
    let bits = -1; // no values at all: nothing can match
    for (const target of this.groups[group]) {
      const entries = fill(owner, target);
      if (entries.length === 0) continue;
      const slotAt = target.slot! * s.words + word;
      bits &= s.slotStamp[slotAt] === this.stamp ? s.slotBits[slotAt] : this.slotWord(entries, word, slotAt);
      if (bits === 0) break; // nothing known for all of them (new values): no need to look further
    }
    s.groupBits[at] = bits;
    s.groupStamp[at] = this.stamp;
    return bits;
  }

  private slotWord(entries: readonly VarEntry[], word: number, at: number): number {
    let bits = -1;
    for (let e = 0; e < entries.length && bits !== 0; e++) {
      const cell = entries[e].leader;
      if (cell.missOwner !== this.memo) this.attach(cell);
      bits &= cell.misses![cell.missRow + word];
    }
    const s = this.summaries;
    s.slotBits[at] = bits;
    s.slotStamp[at] = this.stamp;
    return bits;
  }
}
