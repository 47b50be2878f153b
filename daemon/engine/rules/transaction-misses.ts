// A transaction's view of operator misses (miss-bits.ts): each value's bits, from the rule set's
// memo (miss-memo.ts) or, for a value the memo does not keep, from rows of the transaction's own.
// The rule loop asks per value (rules/evaluate.ts). (Skipping a rule whole when every value it
// reads is known to miss, and runs of such rules at once, were measured on varied traffic and
// bought nothing beyond noise: bench/proxy/results/ab-layers-509374a-20261127-2321.txt; removed.)
import type { VarEntry } from '../collections/keyed-list.js';
import { RowAllocator, type MissMemo, type MissRow } from './miss-memo.js';

const NO_ROWS = new Int32Array(0);

export class TransactionMisses {
  /** Rows for values the memo does not keep (made on first need). */
  private localRows: RowAllocator | undefined;
  private readonly found: MissRow = { table: NO_ROWS, row: 0 };

  constructor(private readonly memo: MissMemo) {}

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
}
