// The per-phase ANDs of miss bits behind rules/miss-groups.ts, computed one 32-rule word at a
// time when a rule asks (a group's rules have neighbouring bits, so one or two words per group),
// in arrays that belong to the rule set and are reused by every transaction: a transaction's
// phase gets a new stamp, and a cell is valid only under the stamp it was computed with. Two
// transactions may interleave (the edge runs phase 1, waits for the body, runs phase 2); one
// overwrites the other's cells under its own stamp, and the other computes them again.
// Computing all words of every group and slot each phase, in arrays made per transaction, cost
// ~14% of the proxy GET.

/** Stamps restart (arrays cleared) before they could overflow a small integer. */
const STAMP_LIMIT = 1 << 30;

export class MissSummaries {
  readonly slotBits: Int32Array;
  readonly slotStamp: Int32Array;
  readonly groupBits: Int32Array;
  readonly groupStamp: Int32Array;
  private lastStamp = 0;

  constructor(readonly words: number, slots: number, groups: number) {
    this.slotBits = new Int32Array(slots * words);
    this.slotStamp = new Int32Array(slots * words);
    this.groupBits = new Int32Array(groups * words);
    this.groupStamp = new Int32Array(groups * words);
  }

  /** A stamp no cell holds: for one phase of one transaction. */
  nextStamp(): number {
    if (++this.lastStamp >= STAMP_LIMIT) {
      this.slotStamp.fill(0);
      this.groupStamp.fill(0);
      this.lastStamp = 1;
    }
    return this.lastStamp;
  }
}
